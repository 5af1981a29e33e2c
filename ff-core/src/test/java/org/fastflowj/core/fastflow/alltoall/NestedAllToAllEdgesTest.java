package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all19.cpp: a central all-to-all whose members are pipelines of nested all-to-alls and combiners carries every item from a source sending only on channel 0 to a multi-input sink. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class NestedAllToAllEdgesTest {

    record S(int t, float f) {}

    /** Sends every item on output channel 0 only. */
    static final class Source extends MultiOutputNode<Void, S> {
        int outputs;

        @Override
        protected S svc(Void none) {
            outputs = outputChannels();
            for (int i = 1; i <= 100; i++) {
                sendOutTo(new S(i, i), 0);
            }
            return eos();
        }
    }

    static final class Sink extends MultiInputNode<S, Void> {
        final List<Integer> items = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();

        @Override
        protected Void svc(S in) {
            items.add(in.t());
            channels.add(inputChannel());
            return goOn();
        }
    }

    /** Plain pass-through node that counts what it saw. */
    static final class Plain extends Node<S, S> {
        int seen;

        @Override
        protected S svc(S in) {
            seen++;
            return in;
        }
    }

    static final class MultiIn extends MultiInputNode<S, S> {
        @Override
        protected S svc(S in) {
            return in;
        }
    }

    static final class MultiOut extends MultiOutputNode<S, S> {
        @Override
        protected S svc(S in) {
            return in;
        }
    }

    @Test
    void shouldCarryEveryItemFromSourceChannelZeroToTheSink() {
        Plain wlIn0 = new Plain();
        Plain wlIn1 = new Plain();
        Plain wlInOut = new Plain();
        Pipeline leftUp = new Pipeline(new AllToAll()
                .firstSet(new Pipeline(wlIn0, new MultiOut()), new Pipeline(wlIn1, new MultiOut()))
                .secondSet(Combiner.of(new MultiIn(), new MultiOut())));
        Pipeline leftDown = new Pipeline(Combiner.of(wlInOut, new MultiOut()));
        Pipeline rightUp = new Pipeline(Combiner.of(new MultiIn(), new MultiOut()));
        Pipeline rightDown = new Pipeline(new AllToAll()
                .firstSet(Combiner.of(new MultiIn(), new MultiOut()), Combiner.of(new MultiIn(), new MultiOut()))
                .secondSet(new Pipeline(new MultiIn(), new Plain())));
        AllToAll central = new AllToAll().firstSet(leftUp, leftDown).secondSet(rightUp, rightDown);
        Source source = new Source();
        Sink sink = new Sink();
        new Pipeline(source, central, sink).runAndWaitEnd();

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(1, 100).boxed().toList());
        // the source fans out to the three entry nodes of the central all-to-all; channel 0 is LeftUp's first
        assertThat(source.outputs).isEqualTo(3);
        assertThat(wlIn0.seen).isEqualTo(100);
        assertThat(wlIn1.seen).isZero();
        assertThat(wlInOut.seen).isZero();
        // the sink's channels are RightUp (0) and RightDown (1); LeftUp's R-Worker deals round-robin to the
        // three entries of the right side (RightUp, RightDown's two L-Workers), so a third goes to RightUp
        assertThat(sink.channels).allSatisfy(c -> assertThat(c).isBetween(0, 1));
        assertThat(sink.channels.stream().filter(c -> c == 0).count()).isBetween(33L, 34L);
    }
}
