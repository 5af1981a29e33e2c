package org.fastflowj.dist.run.lifecycle;

import org.fastflowj.core.NodeFailedException;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.ProgramFrames;
import org.fastflowj.dist.net.PeerException;
import org.fastflowj.dist.run.link.PeerLostException;

/**
 * Which group a failure started in, as far as the group that sees it can tell, and the line that says so
 * for the launcher.
 *
 * <ul>
 *   <li>an ABORT from a peer: the group it names (the origin travels with every ABORT);
 *   <li>a peer's link lost, silent or never made ({@code group B} failing in {@code connection}, or a
 *       bridge {@code ff-send-B} / {@code ff-recv-B} that found its link broken): that peer, B;
 *   <li>unless this process was frozen just before: then its peers gave up on it, and it is the origin;
 *   <li>anything else (a node threw): this group.
 * </ul>
 *
 * <p>Threading: stateless.
 */
final class FailureOrigin {
    /**
     * Printed on stderr, followed by the origin's name, once by every group that fails
     * ({@code DFF_FAILED: B}): the launcher names the origin from it, not from the wording of messages.
     */
    static final String MARKER = "DFF_FAILED:";
    /**
     * Printed on stderr by the origin, after {@link #MARKER}, when one of its own nodes threw: the
     * first frame of the program's code ({@code DFF_FAILED_AT: my.App.parse(App.java:12)}). The
     * launcher shows it even when the group is stopped before it prints its stack trace.
     */
    static final String FRAME_MARKER = "DFF_FAILED_AT:";

    private static final String GROUP_NODE = "group ";
    private static final String SENDER = "ff-send-";
    private static final String RECEIVER = "ff-recv-";

    private FailureOrigin() {}

    /**
     * What {@code group} tells its peers of {@code failure}: the origin, and why.
     *
     * @param frozen true if the failure names a peer, yet this group was the one standing still
     */
    record Verdict(String origin, String why, boolean frozen) {}

    /** Judges {@code failure} seen by {@code group}; {@code frozenMs} &gt; 0 if it just stood still that long. */
    static Verdict of(String group, NodeFailedException failure, long frozenMs) {
        Throwable cause = failure.getCause();
        if (cause instanceof GroupFailedException remote) {
            return new Verdict(remote.origin(), remote.reason(), false);
        }
        String peer = peerNamedBy(failure.nodeName());
        if (peer == null || !(cause instanceof PeerLostException || cause instanceof PeerException)) {
            return new Verdict(group, failure.getMessage(), false);
        }
        if (frozenMs > 0) {
            return new Verdict(
                    group,
                    "this process stood still for " + frozenMs + " ms (SIGSTOP, a debugger, a long GC pause, a"
                            + " suspended VM?) and its peers gave up on it: " + failure.getMessage(),
                    true);
        }
        return new Verdict(peer, "group " + group + " says: " + failure.getMessage(), false);
    }

    private static String peerNamedBy(String nodeName) {
        for (String prefix : new String[] {GROUP_NODE, SENDER, RECEIVER}) {
            if (nodeName.startsWith(prefix)) {
                return nodeName.substring(prefix.length());
            }
        }
        return null;
    }

    /** Tells the launcher where in the program {@code failure}, a node's own, started, if it can tell. */
    static void announceProgramFrame(Throwable failure) {
        String frame = ProgramFrames.first(failure);
        if (frame != null) {
            ControlLine.emit(System.err, FRAME_MARKER + " " + frame);
        }
    }

    /** Tells the launcher (stderr, a status line like {@code DFF_CONNECTED}) where the failure started. */
    static void announce(String origin) {
        ControlLine.emit(System.err, MARKER + " " + origin);
    }
}
