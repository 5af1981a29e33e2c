package org.fastflowj.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;

/**
 * What an idle graph costs, per {@link WaitStrategy}: a 6-thread pipeline (source, four stages, sink)
 * whose source waits {@value #IDLE_SECONDS} s between a warm-up burst and one last item. It prints the
 * process CPU time burnt during the wait, as a share of one core, and how long that last item took from
 * the source to the sink. A probe, not a JMH benchmark: the figure is one long wait, not a rate.
 *
 * <pre>
 *   java -cp ff-bench/target/benchmarks.jar org.fastflowj.bench.IdleCost [STRATEGY...] [--runs N]
 * </pre>
 *
 * <p>A JVM that only sleeps burns a little CPU too (its own service threads); the goal is under 1 % with the default
 * strategy, with the last item still through in under a millisecond.
 */
public final class IdleCost {
    static final int IDLE_SECONDS = 5;
    private static final int WARM_UP_ITEMS = 200_000;
    private static final int STAGES = 4;

    private IdleCost() {}

    /** One run's figures: CPU share of one core while idle, and the last item's source-to-sink time. */
    public record Result(WaitStrategy strategy, double idleCpuShare, long lastItemNanos, long itemsSeen) {
        @Override
        public String toString() {
            return String.format(
                    "%-9s idle CPU %6.2f %% of a core   last item %8.1f us   items %d",
                    strategy, idleCpuShare * 100, lastItemNanos / 1e3, itemsSeen);
        }
    }

    public static void main(String[] args) {
        List<WaitStrategy> strategies = new ArrayList<>();
        int runs = 1;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else {
                strategies.add(WaitStrategy.valueOf(args[i]));
            }
        }
        if (strategies.isEmpty()) {
            strategies = List.of(WaitStrategy.values());
        }
        for (WaitStrategy strategy : strategies) {
            for (int r = 0; r < runs; r++) {
                System.out.println(run(strategy, TimeUnit.SECONDS.toNanos(IDLE_SECONDS)));
            }
        }
    }

    /** Runs the graph once with {@code strategy}, its source idle for {@code idleNanos}. */
    public static Result run(WaitStrategy strategy, long idleNanos) {
        AtomicLong lastItemNanos = new AtomicLong(-1);
        AtomicLong cpuBefore = new AtomicLong();
        AtomicLong cpuAfter = new AtomicLong();
        AtomicLong seen = new AtomicLong();
        Node<Void, long[]> source = new Node<>() {
            private int sent;

            @Override
            protected long[] svc(Void none) {
                if (sent < WARM_UP_ITEMS) {
                    sent++;
                    return new long[] {0};
                }
                if (sent > WARM_UP_ITEMS) {
                    return eos();
                }
                sent++;
                sleepUninterruptibly(500_000_000L); // let the warm-up burst drain and the threads settle
                cpuBefore.set(processCpuNanos());
                sleepUninterruptibly(idleNanos);
                cpuAfter.set(processCpuNanos());
                return new long[] {System.nanoTime()};
            }
        };
        List<BuildingBlock> nodes = new ArrayList<>();
        nodes.add(source);
        for (int i = 0; i < STAGES; i++) {
            nodes.add(Node.<long[], long[]>of(x -> x));
        }
        nodes.add(new Node<long[], Void>() {
            @Override
            protected Void svc(long[] stamp) {
                seen.incrementAndGet();
                if (stamp[0] != 0) {
                    lastItemNanos.set(System.nanoTime() - stamp[0]);
                }
                return goOn();
            }
        });
        Pipeline pipeline = new Pipeline(nodes.toArray(new BuildingBlock[0]));
        pipeline.run(RunOptions.defaults().waitStrategy(strategy));
        pipeline.waitEnd();
        double share = (cpuAfter.get() - cpuBefore.get()) / (double) idleNanos;
        return new Result(strategy, share, lastItemNanos.get(), seen.get());
    }

    /** CPU time of the whole process (every thread, the JVM's own too), in nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void sleepUninterruptibly(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
