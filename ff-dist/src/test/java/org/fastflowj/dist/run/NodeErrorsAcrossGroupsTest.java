package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.FailedItem;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeErrors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node's error policy holds in whichever group runs it: farm workers 2 and 3 run in group W, the rest in
 * group M, and every worker dead-letters the items it throws on. (One JVM runs both groups here, so one
 * consumer sees every group's dead letters; in separate processes each group calls its own.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NodeErrorsAcrossGroupsTest {
    private static final int ITEMS = 400;

    static final class Numbers extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < ITEMS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Throws on multiples of ten; round-robin gives those to workers 0 and 2 (i % 4 is 0 or 2). */
    static final class Rejecting extends Node<Long, Long> {
        @Override
        protected Long svc(Long x) {
            if (x % 10 == 0) {
                throw new IllegalArgumentException("cannot take " + x);
            }
            return x;
        }
    }

    static final class Collector extends MultiInputNode<Long, Void> {
        final Queue<Long> received = new ConcurrentLinkedQueue<>();

        @Override
        protected Void svc(Long in) {
            received.add(in);
            return goOn();
        }
    }

    @Test
    void shouldDeadLetterInTheGroupThatRunsTheNode() throws Exception {
        Queue<FailedItem> dead = new ConcurrentLinkedQueue<>();
        List<Node<Long, Long>> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(new Rejecting().onError(NodeErrors.deadLetter(dead::add)));
        }
        Collector collector = new Collector();
        Farm farm = Farm.of(workers).emitter(new Numbers()).collector(collector);
        farm.createGroup("M");
        farm.createGroup("W").include(workers.get(2)).include(workers.get(3));

        LocalCluster.run(farm, LocalCluster.config(List.of("M", "W"), "\"batchSize\": 8"), 90);

        assertThat(collector.received).hasSize(ITEMS - ITEMS / 10).noneMatch(x -> x % 10 == 0);
        assertThat(dead).hasSize(ITEMS / 10).allMatch(f -> ((Long) f.item()) % 10 == 0);
        assertThat(dead)
                .extracting(FailedItem::node)
                .containsOnly("ff-farm1-worker0", "ff-farm1-worker2"); // worker 2 in group W
    }
}
