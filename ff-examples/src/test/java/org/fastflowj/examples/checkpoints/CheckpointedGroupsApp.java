package org.fastflowj.examples.checkpoints;

import java.nio.file.Path;
import java.time.Duration;
import org.fastflowj.dist.DFF;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.WindowResult;
import org.fastflowj.stream.Windows;

/**
 * A keyed, windowed job over groups whose state must survive a lost group: clicks from a paced generator
 * in S, clicks per user per second in W1 (two instances), users per second in W2 (two instances, keyed
 * by window), their total per second and the lines sink in C, the entry nodes between them in main. C is
 * one instance with one key, so the file's order is the windows' order: a run's output is comparable
 * byte for byte. Checkpoints come from the config alone.
 * {@code main}: {@code [--DFF_GName=G --DFF_Config=file] clicks perSecond output}.
 */
public final class CheckpointedGroupsApp {
    private CheckpointedGroupsApp() {}

    /** A click with up to 400 ms of disorder. */
    public record Click(long ts, String user) {
        static Click of(long seq) {
            return new Click(seq * 2 + Math.floorMod(seq * 7919, 400), "u" + Math.floorMod(seq * 31, 23));
        }
    }

    public static JobStats run(long clicks, double perSecond, Path output) {
        StreamJob job = StreamJob.named("checkpointed-groups");
        job.source(Sources.generator(clicks, perSecond, Click::of))
                .name("clicks")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(500)))
                .group("S")
                .keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(Aggregates.counting())
                .name("clicksPerUser")
                .parallelism(2)
                .group("W1")
                .keyBy(WindowResult::start)
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(Aggregates.counting())
                .name("usersPerSecond")
                .parallelism(2)
                .group("W2")
                .keyBy(r -> "all")
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(Aggregates.summingLong(WindowResult::value))
                .name("total")
                .parallelism(1)
                .group("C")
                .map(r -> r.start() + "," + r.value())
                .name("format")
                .sink(Sinks.lines(output));
        return job.run();
    }

    public static void main(String[] args) {
        String[] rest = DFF.init(args);
        run(Long.parseLong(rest[0]), Double.parseDouble(rest[1]), Path.of(rest[2]));
    }
}
