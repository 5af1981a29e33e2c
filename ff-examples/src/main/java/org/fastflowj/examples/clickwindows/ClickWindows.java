package org.fastflowj.examples.clickwindows;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.DFF;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sink;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.Windows;

/**
 * Clicks per user in tumbling 10 s event-time windows, from {@code ts,user,url} lines with up to 2 s of
 * disorder, as {@code windowStart,user,count} lines: the most ordinary streaming job, on the stream API.
 */
public final class ClickWindows {
    private ClickWindows() {}

    /** One click: its event time in milliseconds, the user, the page. */
    public record Click(long ts, String user, String url) {
        static Optional<Click> parse(String line) {
            int afterTs = line.indexOf(',');
            int afterUser = afterTs < 0 ? -1 : line.indexOf(',', afterTs + 1);
            if (afterUser < 0) {
                return Optional.empty();
            }
            long ts = Long.parseLong(line, 0, afterTs, 10);
            return Optional.of(new Click(ts, line.substring(afterTs + 1, afterUser), line.substring(afterUser + 1)));
        }
    }

    public static JobStats countPerUser(Source<String> lines, int parallelism, Sink<String> output) {
        return countPerUser(lines, parallelism, output, RunOptions.defaults());
    }

    /** {@link #countPerUser}, run with {@code options} (checkpoints, say). */
    // tag::job[]
    public static JobStats countPerUser(
            Source<String> lines, int parallelism, Sink<String> output, RunOptions options) {
        StreamJob job = StreamJob.named("clickwindows");
        job.source(lines)
                .name("read")
                .parallelism(parallelism)
                .flatMap((String line, Consumer<Click> out) -> Click.parse(line).ifPresent(out))
                .name("parse")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofSeconds(2)))
                .keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofSeconds(10)))
                .aggregate(Aggregates.counting())
                .name("count")
                .map(r -> r.start() + "," + r.key() + "," + r.value())
                .name("format")
                .sink(output);
        return job.run(options);
    }
    // end::job[]

    /**
     * The same job with the windows in an ff-dist group of their own: {@code count} (and {@code format},
     * fused with it) runs in group {@code W}, the reader and the sink in the home group {@code main}. Run
     * in one process it gives {@link #countPerUser}'s output; started as the groups of {@code
     * configs/clickwindows.json} (the launcher, or {@code --DFF_GName=W --DFF_Config=...}), each process runs
     * its part and the sink's file is written by {@code main}.
     */
    // tag::groups[]
    public static JobStats countPerUserInGroups(Source<String> lines, int parallelism, Sink<String> output) {
        DFF.register(Click.class); // it crosses from main to W: in every group, in the same order
        StreamJob job = StreamJob.named("clickwindows");
        job.source(lines)
                .name("read")
                .flatMap((String line, Consumer<Click> out) -> Click.parse(line).ifPresent(out))
                .name("parse")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofSeconds(2)))
                .keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofSeconds(10)))
                .aggregate(Aggregates.counting())
                .name("count")
                .parallelism(parallelism)
                .group("W") // count's instances (and format, fused with them) run in group W
                .map(r -> r.start() + "," + r.key() + "," + r.value())
                .name("format")
                .sink(output); // read, parse and the sink: in the home group "main"
        return job.run(); // as group W or main: that group's part; without a group: all of it
    }
    // end::groups[]
}
