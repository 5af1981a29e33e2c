package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A farm whose workers 2 and 3 run in group W while its emitter, collector and workers 0 and 1 run in group
 * M: every policy gives the output of the one-process run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FarmAcrossGroupsTest {
    private static final int ITEMS = 400;

    enum Policy {
        ROUND_ROBIN,
        ON_DEMAND,
        BY_KEY,
        BROADCAST
    }

    static final class Emitter extends MultiOutputNode<Void, Long> {
        private final Policy policy;

        Emitter(Policy policy) {
            this.policy = policy;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < ITEMS; i++) {
                switch (policy) {
                    case BY_KEY -> sendOutTo(i, (int) (i % outputChannels()));
                    case BROADCAST -> broadcast(i);
                    default -> sendOut(i);
                }
            }
            return eos();
        }
    }

    /** Tags each item with the worker that took it; slow enough that on-demand feeds every worker. */
    static final class Worker extends Node<Long, String> {
        private final boolean slow;

        Worker(boolean slow) {
            this.slow = slow;
        }

        @Override
        protected String svc(Long x) throws InterruptedException {
            if (slow) {
                Thread.sleep(1);
            }
            return x * x + "@" + id();
        }
    }

    static final class Collector extends MultiInputNode<String, Void> {
        final List<String> received = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Void svc(String in) {
            received.add(in);
            return goOn();
        }
    }

    private static List<String> run(Policy policy, boolean grouped) throws Exception {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(new Worker(policy == Policy.ON_DEMAND));
        }
        Collector collector = new Collector();
        Farm farm = Farm.of(workers).emitter(new Emitter(policy)).collector(collector);
        if (policy == Policy.ON_DEMAND) {
            farm.onDemand();
        }
        if (grouped) {
            farm.createGroup("M");
            farm.createGroup("W").include(workers.get(2)).include(workers.get(3));
            LocalCluster.run(farm, LocalCluster.config(List.of("M", "W"), "\"batchSize\": 8"), 90);
        } else {
            farm.runAndWaitEnd();
        }
        return collector.received.stream().sorted().toList();
    }

    private static List<String> squares(List<String> tagged) {
        return tagged.stream().map(s -> s.substring(0, s.indexOf('@'))).sorted().toList();
    }

    private static List<String> workersSeen(List<String> tagged) {
        return tagged.stream()
                .map(s -> s.substring(s.indexOf('@') + 1))
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void shouldGiveEveryItemToOneWorkerRoundRobinAcrossGroups() throws Exception {
        List<String> grouped = run(Policy.ROUND_ROBIN, true);
        assertThat(squares(grouped))
                .hasSize(ITEMS)
                .isEqualTo(squares(run(Policy.ROUND_ROBIN, false)))
                .isEqualTo(LongStream.range(0, ITEMS)
                        .mapToObj(x -> Long.toString(x * x))
                        .sorted()
                        .toList());
        assertThat(workersSeen(grouped)).containsExactly("0", "1", "2", "3");
    }

    @Test
    void shouldFeedLocalAndRemoteWorkersOnDemand() throws Exception {
        List<String> grouped = run(Policy.ON_DEMAND, true);
        assertThat(squares(grouped)).hasSize(ITEMS).isEqualTo(squares(run(Policy.ON_DEMAND, false)));
        assertThat(workersSeen(grouped)).contains("2", "3"); // the remote workers asked for work too
    }

    @Test
    void shouldSendEachKeyToItsWorkerAcrossGroups() throws Exception {
        List<String> grouped = run(Policy.BY_KEY, true);
        assertThat(grouped).hasSize(ITEMS).isEqualTo(run(Policy.BY_KEY, false));
        assertThat(grouped).contains("9@3", "4@2", "1@1", "0@0"); // item i went to worker i % 4
    }

    @Test
    void shouldBroadcastToLocalAndRemoteWorkers() throws Exception {
        List<String> grouped = run(Policy.BROADCAST, true);
        assertThat(grouped).hasSize(4 * ITEMS).isEqualTo(run(Policy.BROADCAST, false));
    }

    /** The master-worker shape: the emitter sends tasks, every worker feeds its result back to it. */
    static final class Master extends Node<Long, Long> {
        final List<Long> back = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Long svc(Long in) {
            if (in == null) {
                for (long i = 0; i < ITEMS; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            back.add(in);
            return back.size() == ITEMS ? eos() : goOn();
        }
    }

    private static List<Long> masterWorker(boolean grouped) throws Exception {
        Master master = new Master();
        List<Node<Long, Long>> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(Node.of((Long x) -> x * x));
        }
        // tag::farm-groups[]
        Farm farm = Farm.of(workers).emitter(master).wrapAround(); // the workers' results go back to the master
        farm.createGroup("M"); // the farm's group: the master (emitter) and workers 0 and 1
        farm.createGroup("W").include(workers.get(2)).include(workers.get(3)); // workers 2 and 3 run in group W
        // end::farm-groups[]
        if (grouped) {
            LocalCluster.run(farm, LocalCluster.config(List.of("M", "W"), ""), 90);
        } else {
            farm.runAndWaitEnd(); // in one process the groups change nothing
        }
        return master.back.stream().sorted().toList();
    }

    @Test
    void shouldFeedRemoteWorkersResultsBackToTheEmitter() throws Exception {
        assertThat(masterWorker(true))
                .hasSize(ITEMS)
                .isEqualTo(masterWorker(false))
                .isEqualTo(LongStream.range(0, ITEMS).map(x -> x * x).boxed().toList());
    }
}
