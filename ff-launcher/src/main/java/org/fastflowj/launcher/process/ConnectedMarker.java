package org.fastflowj.launcher.process;

/**
 * The line a group prints (ff-dist, on stderr) once it is connected to all its peers; the launcher shows
 * the group as "connected" and reports when every group is.
 */
final class ConnectedMarker {
    /** Followed by the group name: {@code DFF_CONNECTED: G1}. */
    static final String PREFIX = "DFF_CONNECTED:";

    private ConnectedMarker() {}
}
