package org.fastflowj.dist;

/**
 * Netty defaults ff-dist changes for a group's process, each unless the application set it already: they
 * are read once, when Netty's classes initialise, so {@link DFF#init} sets them before any link exists.
 *
 * <ul>
 *   <li>{@value #JFR_PROPERTY} {@code false}: Netty's buffer allocator emits JDK Flight Recorder events
 *       when JFR is available, and the first one makes the JDK load JFR's whole event metadata (about
 *       50 ms of CPU per group on the way to its first connection: the README's filesearch, total CPU of
 *       the run with and without it, {@code perf stat}, see docs/benchmarks.md, "Time to a first result").
 *       A recording that wants Netty's allocator events sets it to {@code true}.
 * </ul>
 *
 * <p>Threading: called from {@link DFF#init}, before the group's other threads exist.
 */
final class NettyDefaults {
    static final String JFR_PROPERTY = "io.netty.jfr.enabled";

    private NettyDefaults() {}

    /** Sets each default the application did not set. */
    static void apply() {
        if (System.getProperty(JFR_PROPERTY) == null) {
            System.setProperty(JFR_PROPERTY, "false");
        }
    }
}
