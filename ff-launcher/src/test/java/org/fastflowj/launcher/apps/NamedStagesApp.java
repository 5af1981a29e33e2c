package org.fastflowj.launcher.apps;

import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A pipeline of named stages (source, square, sink) that creates no group: its groups are those its config's
 * {@code blocks} lists make. Argument after DFF's: {@code count} (items); the sink's process prints
 * {@code sum=<sum> count=<count>}.
 */
public final class NamedStagesApp {
    private NamedStagesApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long[] sum = new long[2];
        new Pipeline(
                        Node.source(() -> LongStream.range(0, count).boxed().iterator())
                                .named("source"),
                        Node.of((Long x) -> x * x).named("square"),
                        Node.<Long>sink(x -> {
                                    sum[0] += x;
                                    sum[1]++;
                                })
                                .named("sink"))
                .runAndWaitEnd();
        if (sum[1] > 0) {
            System.out.println("sum=" + sum[0] + " count=" + sum[1]);
        }
    }
}
