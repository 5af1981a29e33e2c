package org.fastflowj.launcher.apps;

import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A three-group pipeline (A: source, B: square, C: sum) for the launcher's tests.
 *
 * <p>Arguments after DFF's: {@code count} (items), {@code failAt} (B throws at that item, -1 for never),
 * {@code sleepMicros} (work per item in B). Each group prints {@code <group> up}; C prints
 * {@code sum=<sum> count=<count>}.
 */
public final class SumApp {
    private SumApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long failAt = args.length > 1 ? Long.parseLong(args[1]) : -1;
        long sleepMicros = args.length > 2 ? Long.parseLong(args[2]) : 0;
        DFF.group().ifPresent(g -> System.out.println(g + " up"));
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator());
        Node<Long, Long> square = Node.of(x -> {
            if (x == failAt) {
                throw new IllegalStateException("square refuses " + x);
            }
            if (sleepMicros > 0) {
                try {
                    Thread.sleep(sleepMicros / 1000, (int) (sleepMicros % 1000) * 1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return x * x;
        });
        long[] sum = new long[2];
        Node<Long, Void> sink = Node.sink(x -> {
            sum[0] += x;
            sum[1]++;
        });
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
