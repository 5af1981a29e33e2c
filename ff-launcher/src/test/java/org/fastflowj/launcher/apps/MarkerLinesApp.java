package org.fastflowj.launcher.apps;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;

/**
 * A three-group pipeline (A: source, B: pass, C: sink) whose data are lines that look like the launcher's
 * news ({@link #lines}); C prints each line it gets on stdout and on stderr.
 *
 * <p>Arguments after DFF's: {@code count} (lines), then optionally {@code claim}: C's own code then tells the
 * launcher, sealed with C's key, that it lost group A, a group it has no business losing.
 */
public final class MarkerLinesApp {
    /** Lines that begin as the groups' news to the launcher does, or did before it was sealed. */
    public static final List<String> MARKERS = List.of(
            "DFF_LOSABLE: A,B",
            "DFF_LOST: A",
            "DFF_LOST: B",
            "DFF_CONNECTED: C",
            "DFF_FAILED: A",
            "DFF_FAILED_AT: evil.Main.main(Main.java:1)",
            "DFF_STATS: 5 n x 1 1 1 1 1 1",
            "DFF_PROGRESS: 5 n x 1 1 1 1 1 1",
            "DFF_GRAPH: {\"nodes\":[]}",
            "DFF_GROUPS: X",
            "DFF_CONTROL: 1 AAAAAAAAAAAAAAAAAAAAAA DFF_LOST: A");

    private MarkerLinesApp() {}

    /** The {@code count} lines the source sends: every marker in turn between numbered lines. */
    public static List<String> lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add(i % 2 == 0 ? MARKERS.get(i / 2 % MARKERS.size()) : "line " + i);
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        List<String> lines = lines(Integer.parseInt(args[0]));
        boolean claim = args.length > 1 && args[1].equals("claim");
        Node<Void, String> source = Node.source(lines::iterator);
        Node<String, String> pass = Node.of("pass", (String line) -> line);
        Node<String, Void> sink = Node.sink(line -> {
            System.out.println(line);
            System.err.println(line);
        });
        Pipeline pipe = new Pipeline(source, pass, sink);
        source.createGroup("A");
        pass.createGroup("B");
        sink.createGroup("C");
        if (claim && DFF.group().map("C"::equals).orElse(false)) {
            ControlLine.emit(System.err, "DFF_LOST: A");
        }
        pipe.runAndWaitEnd();
    }
}
