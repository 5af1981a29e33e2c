package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_Scatter.cpp (every L- and R-Worker its own group; the
 * L-Workers split a buffer so that R-Worker j gets exactly one partition, marked j + 1, intact) and
 * test_group24.cpp (an all-to-all whose L-Workers are pipelines of an inner all-to-all, each its own group,
 * with the gatherer in a fourth: it gets every task, 2 x N from each input channel).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScatterAndNestedAllToAllTest {

    /** L-Worker: sends its share of the partitions of {@code data}, each marked with its destination + 1. */
    static final class LNode extends MultiOutputNode<Void, byte[]> {
        private final byte[] data;
        private final int nLeft;

        LNode(byte[] data, int nLeft) {
            this.data = data;
            this.nLeft = nLeft;
        }

        @Override
        protected byte[] svc(Void none) {
            int nout = outputChannels();
            int size = data.length / nout;
            int base = nout / nLeft;
            int rest = nout % nLeft;
            int mine = base + (id() < rest ? 1 : 0);
            int first = id() * base + Math.min(id(), rest);
            for (int k = 0; k < mine; k++) {
                int dest = first + k;
                byte[] partition = java.util.Arrays.copyOfRange(data, dest * size, (dest + 1) * size);
                ByteBuffer.wrap(partition).putLong(0, dest + 1);
                sendOutTo(partition, dest);
            }
            return eos();
        }
    }

    /** R-Worker: checks the mark and the payload of what it got. */
    static final class RNode extends MultiInputNode<byte[], Void> {
        private final byte[] data;
        final List<String> problems = new ArrayList<>();
        int received;

        RNode(byte[] data) {
            this.data = data;
        }

        @Override
        protected Void svc(byte[] p) {
            received++;
            long mark = ByteBuffer.wrap(p).getLong(0);
            if (mark != id() + 1) {
                problems.add("R" + id() + " got the partition marked " + mark);
            }
            int from = id() * p.length;
            for (int i = Long.BYTES; i < p.length; i++) {
                if (p[i] != data[from + i]) {
                    problems.add("R" + id() + " byte " + i + " differs");
                    break;
                }
            }
            return goOn();
        }
    }

    private static void scatter(int nLeft, int nRight, boolean grouped) throws Exception {
        byte[] data = new byte[nRight * 4096];
        new java.util.Random(7).nextBytes(data);
        List<LNode> l = new ArrayList<>();
        List<RNode> r = new ArrayList<>();
        AllToAll a2a = new AllToAll();
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < nLeft; i++) {
            l.add(new LNode(data, nLeft));
        }
        for (int j = 0; j < nRight; j++) {
            r.add(new RNode(data));
        }
        a2a.firstSet(l).secondSet(r);
        if (grouped) {
            for (int i = 0; i < nLeft; i++) {
                a2a.createGroup("S" + i).include(l.get(i));
                groups.add("S" + i);
            }
            for (int j = 0; j < nRight; j++) {
                a2a.createGroup("D" + j).include(r.get(j));
                groups.add("D" + j);
            }
        }
        DistributedPrograms.run(a2a, "", groups);
        assertThat(r).allSatisfy(node -> {
            assertThat(node.problems).isEmpty();
            assertThat(node.received).isEqualTo(1);
        });
    }

    @Test
    void shouldGiveEachRWorkerExactlyItsPartitionWithEveryWorkerInItsOwnGroup() throws Exception {
        scatter(3, 4, false);
        scatter(3, 4, true); // test_Scatter.json: S0..S2, D0..D3
        scatter(2, 4, true);
    }

    static final class Gatherer extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.append(" World");
        }
    }

    static final class HelperNode extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t;
        }
    }

    static final class Root extends MultiInputNode<Task, Void> {
        private final Log log;

        Root(Log log) {
            this.log = log;
        }

        @Override
        protected void svcInit() {
            log.event("root", "inputs=" + inputChannels());
        }

        @Override
        protected Void svc(Task t) {
            log.count("from " + inputChannel() + ": " + t.str() + " " + t.seq());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("root", "eos " + channel);
        }
    }

    private static Log nestedAllToAll(boolean grouped) throws Exception {
        int nl = 3;
        int pl = 2;
        long tasks = 100;
        Log log = new Log();
        List<BuildingBlock> globalLeft = new ArrayList<>();
        for (int i = 0; i < nl; i++) {
            List<HelloSource> clients = new ArrayList<>();
            for (int j = 0; j < pl; j++) {
                clients.add(new HelloSource(tasks)); // test_group24's clients
            }
            AllToAll inner = new AllToAll().firstSet(clients).secondSet(Combiner.of(new Gatherer(), new HelperNode()));
            globalLeft.add(new Pipeline(inner));
        }
        Root root = new Root(log);
        AllToAll main = new AllToAll().firstSet(globalLeft).secondSet(root);
        List<String> groups = new ArrayList<>();
        if (grouped) {
            for (int i = 0; i < nl; i++) {
                main.createGroup("G" + (i + 1)).include(globalLeft.get(i));
                groups.add("G" + (i + 1));
            }
            main.createGroup("G0").include(root);
            groups.add("G0");
        }
        DistributedPrograms.run(main, "", groups);

        assertThat(log.events.get("root")).containsExactlyInAnyOrder("inputs=3", "eos 0", "eos 1", "eos 2");
        assertThat(log.counts).hasSize(nl * (int) tasks);
        for (int c = 0; c < nl; c++) {
            for (long s = 0; s < tasks; s++) {
                assertThat(log.counts).containsEntry("from " + c + ": Hello World " + s, (long) pl);
            }
        }
        return log;
    }

    @Test
    void shouldGatherEveryTaskOfNestedAllToAllGroups() throws Exception {
        Log one = nestedAllToAll(false);
        Log grouped = nestedAllToAll(true);
        assertThat(grouped.counts).isEqualTo(one.counts);
        assertThat(grouped.sortedEvents()).isEqualTo(one.sortedEvents());
    }
}
