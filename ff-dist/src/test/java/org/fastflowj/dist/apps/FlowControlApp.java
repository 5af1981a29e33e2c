package org.fastflowj.dist.apps;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * A fast source (group A) and a sink that first sleeps (group B), for the flow-control test: without
 * credits the items would pile up in B's heap while it sleeps. Arguments after DFF's: {@code count},
 * {@code sleepMs}. B prints {@code count=<n> sum=<s> peakHeapMB=<m>}.
 */
public final class FlowControlApp {
    private FlowControlApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        long count = Long.parseLong(args[0]);
        long sleepMs = Long.parseLong(args[1]);
        long[] seen = new long[2];
        program(count, sleepMs, seen).runAndWaitEnd();
        if (DFF.group().map("B"::equals).orElse(true)) {
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.println("count=" + seen[0] + " sum=" + seen[1] + " peakHeapMB=" + (peak >> 20));
        }
    }

    /** The program: {@code count} numbers from A; B's sink sleeps {@code sleepMs} at the first, counts and sums. */
    public static Pipeline program(long count, long sleepMs, long[] seen) {
        Node<Void, Long> source = new Node<>() {
            private long next;

            @Override
            protected Long svc(Void none) {
                return next < count ? Long.valueOf(next++) : eos();
            }
        };
        Node<Long, Void> sink = Node.sink(x -> {
            if (seen[0]++ == 0) {
                try {
                    Thread.sleep(sleepMs); // the sink that first sleeps: the behaviour under test
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            seen[1] += x;
        });
        source.createGroup("A");
        sink.createGroup("B");
        return new Pipeline(source, sink);
    }
}
