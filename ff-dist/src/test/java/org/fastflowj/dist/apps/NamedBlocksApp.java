package org.fastflowj.dist.apps;

import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A program with named blocks and no group in its code (source, a farm of four squaring workers, sum), for
 * the multi-process test whose config lists each group's blocks. Argument after DFF's: {@code count} (items).
 * The sink prints {@code sum=<sum> count=<count>}.
 */
public final class NamedBlocksApp {
    private NamedBlocksApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        String result = run(Long.parseLong(args[0]));
        if (result != null) {
            System.out.println(result);
        }
    }

    /** Runs the program (this process's group of it, when one is selected); the sink's line, if it ran here. */
    static String run(long count) {
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator()).named("source");
        Farm squares = Farm.of(4, () -> Node.of((Long x) -> x * x)).named("squares");
        long[] sum = new long[2];
        Node<Long, Void> sink = Node.<Long>sink(x -> {
                    sum[0] += x;
                    sum[1]++;
                })
                .named("sink");
        new Pipeline(source, squares, sink).runAndWaitEnd();
        return sum[1] == 0 && count > 0 ? null : "sum=" + sum[0] + " count=" + sum[1];
    }
}
