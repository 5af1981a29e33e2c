package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: pipelines, and a pipeline closed into a loop (docs/building-blocks.md, "Pipeline"). */
@Timeout(60)
class PipelineGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next = 1;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next <= count ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = new ArrayList<>();

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }
    }

    @Test
    void shouldPassEachItemThroughEveryStageInOrder() {
        // tag::pipeline[]
        Collect<String> sink = new Collect<>();
        Pipeline pipe = new Pipeline(new Numbers(5), Node.of((Integer x) -> x * x));
        pipe.add(Node.of((Integer x) -> "sq=" + x)).add(sink); // stages can also be appended
        pipe.runAndWaitEnd();

        assertThat(sink.items).containsExactly("sq=1", "sq=4", "sq=9", "sq=16", "sq=25");
        // end::pipeline[]
    }

    // tag::loop[]
    /** Loop head: starts 3 counters, sends each round again until it reaches 10, then ends the loop. */
    static final class Rounds extends Node<int[], int[]> {
        final List<Integer> finished = new ArrayList<>();

        @Override
        protected int[] svc(int[] counter) {
            if (counter == null) { // first call: no forward input, start the loop
                for (int start = 0; start < 3; start++) {
                    sendOut(new int[] {start});
                }
                return goOn();
            }
            if (counter[0] < 10) {
                return counter; // around once more
            }
            finished.add(counter[0]);
            return finished.size() < 3 ? goOn() : eos(); // EOS does not circulate: the head ends the loop
        }
    }

    static final class Increment extends Node<int[], int[]> {
        @Override
        protected int[] svc(int[] counter) {
            counter[0]++;
            return counter; // the last stage's output goes back to the head
        }
    }
    // end::loop[]

    @Test
    void shouldLoopUntilTheHeadEndsTheStream() {
        // tag::loop-run[]
        Rounds head = new Rounds();
        new Pipeline(head, new Increment()).wrapAround().runAndWaitEnd();

        assertThat(head.finished).containsExactly(10, 10, 10);
        // end::loop-run[]
    }
}
