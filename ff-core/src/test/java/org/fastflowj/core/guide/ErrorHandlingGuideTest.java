package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: what happens when a node throws or a tree is illegal (docs/building-blocks.md, "Errors"). */
@Timeout(60)
class ErrorHandlingGuideTest {

    /** An infinite source: only a failure elsewhere (cancellation) stops it here. */
    static final class Naturals extends Node<Void, Integer> {
        private int next;

        @Override
        protected Integer svc(Void none) {
            return next++;
        }
    }

    static final class Drop extends Node<Object, Void> {
        @Override
        protected Void svc(Object x) {
            return goOn();
        }
    }

    // tag::failing-node[]
    static final class Fragile extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) throws IOException {
            if (x == 1_000) {
                throw new IOException("cannot process " + x);
            }
            return x;
        }
    }
    // end::failing-node[]

    @Test
    void shouldEndTheRunAndNameTheFailingNode() {
        // tag::node-failed[]
        Pipeline pipe = new Pipeline(new Naturals(), new Fragile(), new Drop());
        NodeFailedException failure = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(failure.nodeName()).isEqualTo("ff-pipe1-stage1"); // the failing node's thread
        assertThat(failure.phase()).isEqualTo("svc"); // svcInit, svc, eosNotify or svcEnd
        assertThat(failure.getCause()).isInstanceOf(IOException.class).hasMessage("cannot process 1000");
        // every other thread, even the infinite source, was cancelled and has ended
        // end::node-failed[]
    }

    @Test
    void shouldNameTheFarmWorkerThatFailed() {
        Node<Integer, Integer> slowFragile = new Node<>() {
            @Override
            protected Integer svc(Integer x) {
                throw new IllegalStateException("boom");
            }
        };
        Farm farm = Farm.of(slowFragile);
        assertThatThrownBy(() -> new Pipeline(new Naturals(), farm, new Drop()).runAndWaitEnd())
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("ff-farm1-worker0")
                .hasRootCauseMessage("boom");
    }

    // tag::init-failure[]
    static final class NeedsConfig extends Node<Integer, Integer> {
        @Override
        protected void svcInit() {
            throw new IllegalStateException("missing configuration"); // aborts the whole run
        }

        @Override
        protected Integer svc(Integer x) {
            return x;
        }
    }
    // end::init-failure[]

    @Test
    void shouldAbortTheRunWhenSvcInitFails() {
        NodeFailedException failure = catchThrowableOfType(
                NodeFailedException.class,
                () -> new Pipeline(new Naturals(), new NeedsConfig(), new Drop()).runAndWaitEnd());

        assertThat(failure.nodeName()).isEqualTo("ff-pipe1-stage1");
        assertThat(failure.phase()).isEqualTo("svcInit");
        assertThat(failure).hasMessageContaining("missing configuration");
    }

    @Test
    void shouldRejectANodeUsedTwice() {
        // tag::build-error[]
        Node<Integer, Integer> same = Node.of(x -> x);
        Pipeline illegal = new Pipeline(new Naturals(), same, same);

        assertThatThrownBy(illegal::run) // checked when the tree is compiled
                .isInstanceOf(GraphBuildException.class) // an IllegalArgumentException
                .hasMessageContaining("is used twice");
        // end::build-error[]
    }
}
