package org.fastflowj.stream;

import java.util.Map;
import org.fastflowj.core.RunStats;

/**
 * A finished run: ff-core's statistics (one entry per node, named after its operators and instance), and
 * per operator the records that came too late for their windows, the records skipped and dead-lettered
 * by the error policy (operators with none are left out).
 *
 * @param run the nodes' statistics
 * @param lateRecords late records per window operator
 * @param skippedRecords records dropped by {@link ErrorPolicy#skip()} per operator
 * @param deadLetters records sent to the dead-letter sink per operator
 */
public record JobStats(
        RunStats run, Map<String, Long> lateRecords, Map<String, Long> skippedRecords, Map<String, Long> deadLetters) {
    public JobStats {
        lateRecords = Map.copyOf(lateRecords);
        skippedRecords = Map.copyOf(skippedRecords);
        deadLetters = Map.copyOf(deadLetters);
    }

    /** Late records over every window operator. */
    public long totalLateRecords() {
        return lateRecords.values().stream().mapToLong(Long::longValue).sum();
    }
}
