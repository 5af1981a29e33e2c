package org.fastflowj.examples.a2abw;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.fastflowj.core.Node;

/**
 * Sink: gathers the R-Workers' reports and prints each, the total bytes, the weighted sum of the whole
 * file, and the aggregate bandwidth: all bytes over the time from the first chunk sent anywhere to the
 * last R-Worker's end (epoch clock: the groups share a machine, or synchronised clocks). Timed from the
 * first send, not the first receipt: a receiver group that starts its nodes late finds megabytes already
 * read for it, which a window opened at its first chunk would leave out.
 */
final class BandwidthSink extends Node<Report, Void> {
    private final PrintStream out;
    private final List<Report> reports = new ArrayList<>();

    BandwidthSink(PrintStream out) {
        this.out = out;
    }

    @Override
    protected Void svc(Report report) {
        reports.add(report);
        return goOn();
    }

    @Override
    protected void svcEnd() {
        reports.sort(Comparator.comparingInt(Report::worker));
        long bytes = 0;
        long sum = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Report r : reports) {
            out.printf("R%d: %d bytes%n", r.worker() + 1, r.bytes()); // as its group, R1..
            bytes += r.bytes();
            sum += r.weightedSum();
            if (r.bytes() > 0) {
                first = Math.min(first, r.firstSentNs());
            }
            last = Math.max(last, r.endNs());
        }
        double seconds = first == Long.MAX_VALUE ? 0 : Math.max(1e-9, (last - first) / 1e9);
        out.printf("total: %d bytes, weighted sum %d%n", bytes, sum);
        out.printf("a2abw: %.1f MB/s aggregate over %.3f s%n", seconds == 0 ? 0 : bytes / 1e6 / seconds, seconds);
        out.flush();
    }
}
