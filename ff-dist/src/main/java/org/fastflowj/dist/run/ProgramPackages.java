package org.fastflowj.dist.run;

import java.net.URL;
import java.security.CodeSource;
import java.util.Set;
import java.util.TreeSet;
import org.fastflowj.core.Node;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.dist.DFF;

/**
 * The packages that hold a program's own node classes: their classes may cross groups unregistered. Both ends
 * run the same program (the handshake compares the graph's fingerprint, which names every node class), so these
 * are classes the receiver's program ships itself. FastFlow-J's own node classes (a {@code Node.of} lambda's
 * wrapper, a farm's default emitter) and the JDK's add nothing: their packages are not the program's.
 */
final class ProgramPackages {
    private ProgramPackages() {}

    /** {@code settings} with the packages of {@code whole}'s node classes allowed besides. */
    static DFF.Settings admit(Graph whole, DFF.Settings settings) {
        return settings.withSerialization(settings.serialization().allowingProgramPackages(of(whole)));
    }

    static Set<String> of(Graph whole) {
        Set<String> packages = new TreeSet<>();
        for (Vertex v : whole.vertices()) {
            Class<?> type = v.node().getClass();
            if (!fromLibrary(type)) {
                packages.add(type.getPackageName());
            }
        }
        return packages;
    }

    /** Whether {@code type} comes from the JDK, ff-core or ff-dist rather than from the program. */
    private static boolean fromLibrary(Class<?> type) {
        URL location = location(type);
        return location == null || location.equals(location(Node.class)) || location.equals(location(DFF.class));
    }

    private static URL location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null ? null : source.getLocation();
    }
}
