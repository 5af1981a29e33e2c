package org.fastflowj.core;

import java.security.CodeSource;
import java.util.Objects;
import java.util.ServiceLoader;
import org.fastflowj.core.spi.Engine;
import org.fastflowj.core.spi.NodeLifecycle;

/**
 * Finds the engine and hands it the door into {@link Node}'s life-cycle methods. Only a provider from
 * this module is taken, and on the class path (one unnamed module for everything) only one loaded from
 * the same jar or directory as this class: a user's provider is never created.
 *
 * <p>Called once, from {@code Node}'s static initialiser, which keeps the engine: every path to the
 * engine goes through {@code Node}'s class initialisation first, so two threads starting FastFlow-J at
 * once cannot wait on each other's class initialisation.
 */
final class Engines {
    private Engines() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> find(NodeLifecycle<Node<?, ?>> lifecycle) {
        ClassLoader loader = Engines.class.getClassLoader();
        CodeSource ours = Engines.class.getProtectionDomain().getCodeSource();
        for (ServiceLoader.Provider<Engine> provider :
                ServiceLoader.load(Engine.class, loader).stream().toList()) {
            Class<?> type = provider.type(); // loaded, not initialised: a refused provider runs no code
            if (type.getModule() == Engines.class.getModule()
                    && type.getClassLoader() == loader
                    && Objects.equals(type.getProtectionDomain().getCodeSource(), ours)) {
                Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> engine = provider.get();
                engine.attach(lifecycle);
                return engine;
            }
        }
        throw new IllegalStateException("no FastFlow-J engine found: ff-core's service file"
                + " META-INF/services/" + Engine.class.getName()
                + " is missing (a shaded or repackaged jar must keep service files)");
    }
}
