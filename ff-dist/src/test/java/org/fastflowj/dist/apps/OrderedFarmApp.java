package org.fastflowj.dist.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * An ordered farm of three workers of different speeds, two of them in worker groups of their own: {@code
 * source -> farm(ordered; worker 0 in M, worker 1 in W1, worker 2 in W2) -> sink}. A task may give no
 * output ({@code goOn()}), one, or two. The sink, in group M, prints {@code result: <outputs in the order
 * received>}, to compare with {@link #expected}.
 *
 * <p>Arguments after DFF's: {@code roundRobin|onDemand} and the number of items.
 */
public final class OrderedFarmApp {
    public static final List<String> GROUPS = List.of("M", "W1", "W2");

    private OrderedFarmApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        boolean onDemand = args[0].equals("onDemand");
        long items = Long.parseLong(args[1]);
        List<Long> out = new ArrayList<>();
        build(onDemand, items, out).runAndWaitEnd();
        if (DFF.group().map("M"::equals).orElse(true)) {
            System.out.println("result: " + out);
        }
    }

    /** What the sink gets: per task in input order, its outputs. */
    public static List<Long> expected(long items) {
        List<Long> out = new ArrayList<>();
        for (long x = 0; x < items; x++) {
            if (x % 7 == 3) {
                continue;
            }
            if (x % 5 == 1) {
                out.add(-x);
            }
            out.add(x * x);
        }
        return out;
    }

    /** Pauses {@code pauseNanos} on two tasks of three: workers of different speeds. */
    static final class UnevenWorker extends Node<Long, Long> {
        private final long pauseNanos;

        UnevenWorker(long pauseNanos) {
            this.pauseNanos = pauseNanos;
        }

        @Override
        protected Long svc(Long x) {
            if (pauseNanos > 0 && x % 3 != 0) {
                LockSupport.parkNanos(pauseNanos); // uneven work: a task's output may be overtaken
            }
            if (x % 7 == 3) {
                return goOn(); // a task with no output
            }
            if (x % 5 == 1) {
                sendOut(-x); // a task with two outputs
            }
            return x * x;
        }
    }

    public static Pipeline build(boolean onDemand, long items, List<Long> out) {
        Node<Void, Long> source =
                Node.source(() -> LongStream.range(0, items).boxed().iterator());
        UnevenWorker fast = new UnevenWorker(0);
        UnevenWorker medium = new UnevenWorker(200_000);
        UnevenWorker slow = new UnevenWorker(1_000_000);
        // tag::ordered-groups[]
        Farm farm = Farm.of(fast, medium, slow).ordered(32);
        if (onDemand) {
            farm.onDemand();
        }
        Node<Long, Void> sink = new Node<>() {
            @Override
            protected Void svc(Long x) {
                out.add(x);
                return goOn();
            }
        };
        Pipeline program = new Pipeline(source, farm, sink);
        program.createGroup("M");
        farm.createGroup("W1").include(medium);
        farm.createGroup("W2").include(slow);
        // end::ordered-groups[]
        return program;
    }
}
