package org.fastflowj.core;

import java.util.ServiceLoader;
import org.fastflowj.core.spi.Engine;

/**
 * Finds the engine once, when the first node class or block is used, and hands it the door into
 * {@link Node}'s life-cycle methods. Only a provider from this module (and, on the class path, this
 * class loader and an {@code org.fastflowj.core} package) is taken: a user's provider is ignored.
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
        for (ServiceLoader.Provider<Engine> provider :
                ServiceLoader.load(Engine.class, loader).stream().toList()) {
            Class<?> type = provider.type();
            if (type.getModule() == Engines.class.getModule()
                    && type.getClassLoader() == loader
                    && type.getPackageName().startsWith("org.fastflowj.core.")) {
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
