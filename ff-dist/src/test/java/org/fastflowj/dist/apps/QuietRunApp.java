package org.fastflowj.dist.apps;

import java.util.stream.LongStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * The programs {@link CurrentJdkProcessTest} runs on a current JDK to prove the run-time prints nothing
 * of its own on stderr. {@code local COUNT}: a pipeline through a farm (bounded channels) and an
 * accelerator (its bounded input and unbounded output), printing {@code sum=<s>} for each. Otherwise,
 * after DFF's arguments, {@code COUNT}: a source in group A and a summing sink in group B, which prints
 * {@code sum=<s>}.
 */
public final class QuietRunApp {
    private QuietRunApp() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("local")) {
            long count = Long.parseLong(args[1]);
            System.out.println("pipeline sum=" + farmPipelineSum(count));
            System.out.println("accelerator sum=" + acceleratorSum(count));
            return;
        }
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long[] sum = new long[1];
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator());
        Node<Long, Void> sink = Node.sink(x -> sum[0] += x);
        source.createGroup("A");
        sink.createGroup("B");
        new Pipeline(source, sink).runAndWaitEnd();
        if (DFF.group().map("B"::equals).orElse(true)) {
            System.out.println("sum=" + sum[0]);
        }
    }

    private static long farmPipelineSum(long count) {
        long[] sum = new long[1];
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, count).boxed().iterator());
        Farm squares = Farm.of(2, () -> Node.of((Long x) -> x * x));
        new Pipeline(source, squares, Node.sink((Long x) -> sum[0] += x)).runAndWaitEnd();
        return sum[0];
    }

    private static long acceleratorSum(long count) {
        Accelerator<Long, Long> accelerator = Accelerator.start(Farm.of(2, () -> Node.of((Long x) -> x * x)));
        long sum = 0;
        for (long i = 0; i < count; i++) {
            accelerator.offload(i);
        }
        accelerator.endInput();
        for (Long square; (square = accelerator.loadResult()) != null; ) {
            sum += square;
        }
        return sum;
    }
}
