package org.fastflowj.launcher.apps;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.dist.DFF;

/**
 * {@link SumApp}'s three groups with state that survives a restart, checkpoints coming from the config: A
 * counts from 0 (its next number in its snapshot), B squares each number, C sums them (sum and count in its
 * snapshot) and prints {@code sum=<sum> count=<count>} at the end, so a run that lost or repeated an item
 * across a restart prints other numbers.
 *
 * <p>Arguments after DFF's: {@code count} (items), {@code sleepMicros} (A's pause before each item). Each group
 * prints {@code <group> up}.
 */
public final class CheckpointedSumApp {
    private CheckpointedSumApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long sleepMicros = Long.parseLong(args[1]);
        DFF.group().ifPresent(g -> System.out.println(g + " up"));
        Counter source = new Counter(count, sleepMicros);
        Node<Long, Long> square = Node.of("square", (Long x) -> x * x);
        Summer sink = new Summer();
        Pipeline pipe = new Pipeline(source, square, sink);
        source.createGroup("A");
        square.createGroup("B");
        sink.createGroup("C");
        pipe.runAndWaitEnd();
        if (DFF.group().map("C"::equals).orElse(true)) {
            System.out.println("sum=" + sink.sum + " count=" + sink.count);
        }
    }

    /** 0 .. end-1, paced: a stream that fills no queue carries each barrier on at once. */
    private static final class Counter extends Node<Void, Long> implements Checkpointed {
        private final long end;
        private final long sleepMicros;
        private long next;

        Counter(long end, long sleepMicros) {
            this.end = end;
            this.sleepMicros = sleepMicros;
        }

        @Override
        protected Long svc(Void input) throws InterruptedException {
            if (next == end) {
                return eos();
            }
            Thread.sleep(sleepMicros / 1000, (int) (sleepMicros % 1000) * 1000);
            return next++;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(next);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            next = in.readLong();
        }
    }

    private static final class Summer extends Node<Long, Void> implements Checkpointed {
        private long sum;
        private long count;

        @Override
        protected Void svc(Long value) {
            sum += value;
            count++;
            return goOn();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(sum);
            out.writeLong(count);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            sum = in.readLong();
            count = in.readLong();
        }
    }
}
