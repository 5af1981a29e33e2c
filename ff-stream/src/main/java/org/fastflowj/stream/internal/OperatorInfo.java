package org.fastflowj.stream.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** What an operator instance knows of itself: its name, its index among its instances, its counters. */
public record OperatorInfo(String name, int instance, int instances, Counters counters) {
    /**
     * Counts of the rare paths (late records, skipped and dead-lettered records), shared by an operator's
     * instances; incremented only off the hot path. {@code started}: an instance started in this process
     * (run as one group of several, a process runs only its group's instances).
     */
    public record Counters(AtomicLong late, AtomicLong skipped, AtomicLong deadLettered, AtomicBoolean started) {
        public Counters() {
            this(new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicBoolean());
        }
    }

    public String qualifiedName() {
        return instances == 1 ? "'" + name + "'" : "'" + name + "' (instance " + instance + " of " + instances + ")";
    }
}
