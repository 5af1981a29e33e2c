package org.fastflowj.examples.clickwindows;

import java.nio.file.Path;
import java.time.Duration;
import org.fastflowj.dist.DFF;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.ErrorPolicy;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.Windows;

/**
 * A stream job whose every stage is in a group of its own: the source in S (a farm of sources), the
 * windows in W right after it (behind an entry node of main), with a formatting step whose failures go
 * to a dead-letter sink, and a copy stage fused with the sink in C, which writes the late records and
 * dead letters too; or a windowed join in group J. {@code main}: {@code [--DFF_GName=G
 * --DFF_Config=file] clicks output late dead}, or {@code ... join clicks output}.
 */
public final class StreamGroupShapesApp {
    private StreamGroupShapesApp() {}

    /** A click; every 97th is 3 s older than its neighbours, late beyond the disorder and the lateness. */
    public record Click(long ts, String user) {
        static Click of(long seq) {
            long ts = seq * 2 + Math.floorMod(seq * 7919, 400) + (seq % 97 == 0 ? -3_000 : 0);
            return new Click(Math.max(0, ts), "u" + Math.floorMod(seq * 31, 17));
        }
    }

    public static JobStats run(long clicks, Path output, Path late, Path dead) {
        StreamJob job = StreamJob.named("shapes");
        job.source(Sources.generator(clicks, 0, Click::of))
                .name("clicks")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(500)))
                .group("S")
                .keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .allowedLateness(Duration.ofMillis(200))
                .lateTo(Sinks.lines(late))
                .aggregate(Aggregates.counting())
                .name("count")
                .parallelism(2)
                .group("W")
                .map(r -> {
                    if (r.start() / 1000 % 7 == 3) {
                        throw new IllegalArgumentException("second " + r.start() / 1000 + " has no line");
                    }
                    return r.start() + "," + r.key() + "," + r.value();
                })
                .name("format")
                .onError(ErrorPolicy.deadLetter(Sinks.lines(dead)))
                .rebalance()
                .map(line -> "copy," + line)
                .name("copy")
                .parallelism(1)
                .group("C")
                .sink(Sinks.lines(output));
        return job.run();
    }

    /** Clicks joined with clicks of the same user in 500 ms windows, the join's two instances in group J. */
    public static JobStats join(long clicks, Path output) {
        StreamJob job = StreamJob.named("join");
        job.source(Sources.generator(clicks, 0, Click::of))
                .name("left")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofSeconds(4)))
                .join(job.source(Sources.generator(clicks, 0, seq -> Click.of(seq + 5)))
                        .name("right")
                        .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofSeconds(4))))
                .where(Click::user)
                .equalTo(Click::user)
                .window(Windows.tumbling(Duration.ofMillis(500)))
                .apply((l, r) -> l.ts() + "," + r.ts() + "," + l.user())
                .name("pairs")
                .parallelism(2)
                .group("J")
                .sink(Sinks.lines(output));
        return job.run();
    }

    public static void main(String[] args) {
        String[] rest = DFF.init(args);
        if (rest[0].equals("join")) {
            JobStats stats = join(Long.parseLong(rest[1]), Path.of(rest[2]));
            System.out.println("late " + stats.totalLateRecords());
            return;
        }
        JobStats stats = run(Long.parseLong(rest[0]), Path.of(rest[1]), Path.of(rest[2]), Path.of(rest[3]));
        System.out.println("late " + stats.totalLateRecords());
    }
}
