package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all16.cpp: an all-to-all whose L-Worker is a pipeline of an inner all-to-all (source combiners dealing round-robin with sendOutTo, workers wrapped in helper combiners) and whose R-Worker is a fused sink counts every task. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllToAllOfAllToAllSourcesTest {

    /**
     * Generates its share of tasks, one per call. FastFlow's Source0 is an ff_monode_t that only returns
     * its output; here it is a plain node, as a combiner's first node must not be multi-output.
     */
    static final class Source0 extends Node<Void, Long> {
        private long remaining;

        Source0(long tasks) {
            this.remaining = tasks;
        }

        @Override
        protected Long svc(Void none) {
            if (remaining <= 0) {
                return eos();
            }
            remaining--;
            return 13L;
        }
    }

    /** Deals its inputs to its output channels in turn. */
    static final class Source1 extends MultiOutputNode<Long, Long> {
        private int outputs;
        private long count;

        @Override
        protected void svcInit() {
            outputs = outputChannels();
        }

        @Override
        protected Long svc(Long in) {
            sendOutTo(in, (int) (count++ % outputs));
            return goOn();
        }
    }

    static final class MiHelper extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class MoHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Worker extends Node<Long, Long> {
        long count;

        @Override
        protected Long svc(Long in) {
            count++;
            return in;
        }
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        long count;
        long sum;

        @Override
        protected Void svc(Long in) {
            count++;
            sum += in;
            return goOn();
        }
    }

    @Test
    void shouldCountEveryTaskAtTheSinkAndDealThemEvenlyToTheWorkers() {
        long tasks = 120_000;
        int sources = 4;
        int nWorkers = 3;
        List<BuildingBlock> sourcePipes = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
            sourcePipes.add(new Pipeline(Combiner.of(new Source0(tasks / sources), new Source1())));
        }
        List<Worker> workers = new ArrayList<>();
        List<BuildingBlock> workerPipes = new ArrayList<>();
        for (int i = 0; i < nWorkers; i++) {
            Worker w = new Worker();
            workers.add(w);
            workerPipes.add(new Pipeline(Combiner.of(Combiner.of(new MiHelper(), w), new MoHelper())));
        }
        AllToAll internal = new AllToAll().firstSet(sourcePipes).secondSet(workerPipes);
        Sink sink = new Sink();
        AllToAll main = new AllToAll()
                .firstSet(new Pipeline(internal))
                .secondSet(new Pipeline(Combiner.of(new MiHelper(), sink)));
        main.runAndWaitEnd();

        assertThat(sink.count).isEqualTo(tasks);
        assertThat(sink.sum).isEqualTo(13 * tasks);
        // each source sends its 30,000 tasks to channels 0,1,2,0,1,2,...
        assertThat(workers).extracting(w -> w.count).containsExactly(40_000L, 40_000L, 40_000L);
    }
}
