package org.fastflowj.core;

import java.security.CodeSource;
import java.util.Objects;
import java.util.ServiceLoader;
import org.fastflowj.core.spi.Engine;

/**
 * Finds the engine once, when the first node class or block is used, and hands it the door into
 * {@link Node}'s life-cycle methods. Only a provider from this module is taken, and on the class path
 * (one unnamed module for everything) only one loaded from the same jar or directory as this class: a
 * user's provider is never created.
 */
final class Engines {
    private static final Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> ENGINE = find();

    private Engines() {}

    /** Loads the engine if it is not loaded yet: Node's static initialiser calls it. */
    static void load() {
        // Reading nothing: initialising this class is the work.
    }

    static Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> engine() {
        return ENGINE;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> find() {
        ClassLoader loader = Engines.class.getClassLoader();
        CodeSource ours = Engines.class.getProtectionDomain().getCodeSource();
        for (ServiceLoader.Provider<Engine> provider :
                ServiceLoader.load(Engine.class, loader).stream().toList()) {
            Class<?> type = provider.type(); // loaded, not initialised: a refused provider runs no code
            if (type.getModule() == Engines.class.getModule()
                    && type.getClassLoader() == loader
                    && Objects.equals(type.getProtectionDomain().getCodeSource(), ours)) {
                Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> engine = provider.get();
                engine.attach(Node.lifecycle());
                return engine;
            }
        }
        throw new IllegalStateException("no FastFlow-J engine found: ff-core's service file"
                + " META-INF/services/" + Engine.class.getName()
                + " is missing (a shaded or repackaged jar must keep service files)");
    }
}
