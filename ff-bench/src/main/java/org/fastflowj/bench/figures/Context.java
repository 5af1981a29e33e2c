package org.fastflowj.bench.figures;

import java.nio.file.Path;
import java.util.Map;

/**
 * What every figure gets: its sizes, the results log, the plotter, a scratch directory, and the link
 * ceilings measured by iperf3 in this run (Mbit/s by link name: {@code loopback}, {@code shaped}), and the
 * namespace prefix of the emulated cluster's hosts (null when no cluster is up).
 */
record Context(
        Scale scale, ResultLog log, Plots plots, Path scratch, Map<String, Double> ceilingsMbps, String clusterPrefix) {
    /** A ceiling in MB/s (10^6 bytes), or null when it was not measured. */
    Double ceilingMegabytes(String link) {
        Double mbps = ceilingsMbps.get(link);
        return mbps == null ? null : mbps / 8;
    }
}
