package org.fastflowj.examples.clickwindows;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
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
            String[] f = line.split(",", 3);
            return f.length == 3 ? Optional.of(new Click(Long.parseLong(f[0]), f[1], f[2])) : Optional.empty();
        }
    }

    // tag::job[]
    public static JobStats countPerUser(Source<String> lines, int parallelism, Sink<String> output) {
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
                .map(r -> r.start() + "," + r.key() + "," + r.value())
                .name("format")
                .sink(output);
        return job.run();
    }
    // end::job[]
}
