package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Watermark alignment ({@link StreamJob#maxWatermarkDrift}): an operator of several inputs stops reading
 * an input that runs ahead of the slowest by more than the drift, so a fast source cannot pile its records
 * up behind a slow one's time; the results are those of a job without it.
 */
@Timeout(60)
class WatermarkAlignmentTest {
    private static final long FAST = 200_000;
    private static final long SLOW = 2_000;

    /** A record of the fast or the slow input, at {@code ts} ms. */
    record Ev(boolean slow, long ts) {}

    /** The fast input (times 0.. FAST-1 ms, as fast as it goes) and the slow one (1 record per ms). */
    private static DataStream<Ev> fastAndSlow(StreamJob job) {
        DataStream<Ev> fast = job.source(Sources.generator(FAST, 0, i -> new Ev(false, i)))
                .name("fast")
                .withTimestamps(Ev::ts, Watermarks.ascending());
        DataStream<Ev> slow = job.source(Sources.generator(SLOW, 4_000, i -> new Ev(true, i)))
                .name("slow")
                .withTimestamps(Ev::ts, Watermarks.ascending());
        return fast.union(slow);
    }

    @Test
    void aFastInputIsReadNoFurtherThanTheDriftAheadOfTheSlowOne() {
        long drift = 50;
        StreamJob job = StreamJob.named("aligned").maxWatermarkDrift(Duration.ofMillis(drift));
        List<Ev> arrivals = Collections.synchronizedList(new ArrayList<>());
        fastAndSlow(job).sink(Sinks.forEach(arrivals::add));

        job.run();

        assertThat(arrivals).hasSize((int) (FAST + SLOW));
        long slowSeen = Long.MIN_VALUE;
        long slowRecords = 0;
        long furthestAhead = Long.MIN_VALUE;
        for (Ev e : arrivals) {
            if (e.slow()) {
                slowSeen = e.ts();
                slowRecords++;
            } else if (slowRecords > 0 && slowRecords < SLOW) {
                furthestAhead = Math.max(furthestAhead, e.ts() - slowSeen);
            }
        }
        // The slow input's watermark runs one record ahead of the records it let through (it precedes
        // the record that moved it), and each input's watermark is its last time - 1.
        assertThat(furthestAhead)
                .as("how far the fast input's records ran ahead of the slow input's, while both were live")
                .isLessThanOrEqualTo(drift + 3);
    }

    @Test
    void alignedOrNotAJobGivesTheSameWindows() {
        List<String> results = new ArrayList<>();
        for (Duration drift : new Duration[] {Duration.ZERO, Duration.ofMillis(20), null}) {
            StreamJob job = StreamJob.named("windows").maxWatermarkDrift(drift);
            CollectSink<WindowResult<Boolean, Long>> counts = Sinks.collect();
            fastAndSlow(job)
                    .keyBy(Ev::slow)
                    .window(Windows.tumbling(Duration.ofMillis(100)))
                    .aggregate(Aggregates.counting())
                    .sink(counts);
            job.run();
            List<String> lines = new ArrayList<>();
            counts.items().forEach(r -> lines.add(r.key() + "@" + r.start() + "=" + r.value()));
            Collections.sort(lines);
            results.add(String.join(",", lines));
        }
        assertThat(results.get(0)).contains("false@0=100", "true@1900=100");
        assertThat(results).as("drift 0, 20 ms, none").containsOnly(results.get(0));
    }

    @Test
    void aNegativeDriftIsRefusedNamingTheJob() {
        assertThatThrownBy(() -> StreamJob.named("j").maxWatermarkDrift(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job 'j'")
                .hasMessageContaining("-0.001S");
    }
}
