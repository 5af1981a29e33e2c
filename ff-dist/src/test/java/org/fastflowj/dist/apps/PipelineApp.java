package org.fastflowj.dist.apps;

import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A three-stage pipeline (source, square, sum) for the multi-process tests, in groups A, B, C.
 *
 * <p>Arguments after DFF's: {@code count} (items), {@code failAt} (the square stage throws at that item,
 * -1 for never), {@code sleepMicros} (work per item in the square stage), {@code failAtEnd} (when
 * {@code true}, the sink throws in {@code svcEnd}, after it took every item: the other groups' parts have
 * ended by then). The sink prints {@code sum=<sum> count=<count>}.
 */
public final class PipelineApp {
    private PipelineApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long failAt = args.length > 1 ? Long.parseLong(args[1]) : -1;
        long sleepMicros = args.length > 2 ? Long.parseLong(args[2]) : 0;
        boolean failAtEnd = args.length > 3 && Boolean.parseBoolean(args[3]);
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator());
        Node<Long, Long> square = Node.of(x -> {
            if (x == failAt) {
                throw new IllegalStateException("square refuses " + x);
            }
            if (sleepMicros > 0) {
                long until = System.nanoTime() + sleepMicros * 1000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            return x * x;
        });
        long[] sum = new long[2];
        Node<Long, Void> sink = new Node<>() {
            @Override
            protected Void svc(Long x) {
                if (sum[1] == 0) {
                    System.out.println("first item arrived"); // the multi-process tests wait for this line
                    System.out.flush();
                }
                sum[0] += x;
                sum[1]++;
                return goOn();
            }

            @Override
            protected void svcEnd() {
                if (failAtEnd) {
                    throw new IllegalStateException("the sink fails at its end, after " + sum[1] + " items");
                }
            }
        };
        Pipeline pipe = new Pipeline(source, square, sink);
        source.createGroup("A");
        square.createGroup("B");
        sink.createGroup("C");
        pipe.runAndWaitEnd();
        if (DFF.group().map("C"::equals).orElse(true)) {
            System.out.println("sum=" + sum[0] + " count=" + sum[1]);
        }
    }
}
