/**
 * FastFlow-J's shared-memory building blocks. Programs see {@code org.fastflowj.core} (nodes, pipeline,
 * farm, all-to-all, accelerator, run options and statistics) and {@code org.fastflowj.patterns}
 * (parallel-for, map-reduce, divide and conquer, macro data flow). The engine packages are exported only
 * to ff-dist (its runner and network bridges) and, for the metrics, to ff-dist and the launcher.
 */
module org.fastflowj.core {
    requires java.management;
    requires org.jctools.core;
    // JCTools' Unsafe queues (used below JDK 24) need sun.misc.Unsafe, which JCTools requires only
    // statically: without this a modular program fails at its first channel (ModulePathTest).
    requires jdk.unsupported;
    requires org.slf4j;
    // Thread pinning (RunOptions.threadMapping) when the affinity jar is resolved; unpinned without it.
    requires static affinity;

    exports org.fastflowj.core;
    exports org.fastflowj.core.checkpoint;
    exports org.fastflowj.patterns;
    exports org.fastflowj.patterns.crossing to
            org.fastflowj.dist;
    exports org.fastflowj.core.spi to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime.queue to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime.channel to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime.control to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime.recovery to
            org.fastflowj.dist;
    exports org.fastflowj.core.runtime.bridge to
            org.fastflowj.dist;
    exports org.fastflowj.core.graph to
            org.fastflowj.dist;
    // A group reports its graph and queues in the metrics' line format, the launcher reads and serves
    // them; JMX reads the MXBean interfaces.
    exports org.fastflowj.core.metrics to
            org.fastflowj.dist,
            org.fastflowj.launcher,
            java.management;

    uses org.fastflowj.core.spi.Engine;
    uses org.fastflowj.core.runtime.GraphRunner;

    provides org.fastflowj.core.spi.Engine with
            org.fastflowj.core.runtime.LocalEngine;
}
