package org.fastflowj.dist.run.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.dist.run.Programs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A failure that comes while the group still connects fails its run once it starts; the first one wins. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LocalRunTest {
    /** A run that goes on until it is failed or cancelled. */
    private static Execution endlessRun() {
        Pipeline endless = new Pipeline(new Programs.Source(Long.MAX_VALUE), new Programs.Sink(new Programs.Trace()));
        return Executor.start(GraphCompiler.compile(endless), RunOptions.defaults());
    }

    @Test
    void shouldFailTheRunWithTheFirstFailureThatCameBeforeItStarted() {
        LocalRun local = new LocalRun();
        local.fail("group C", "abort", new IllegalStateException("C is missing"));
        local.fail("group B", "connection", new IllegalStateException("B closed its connection"));
        assertThat(local.stopped()).isFalse();

        Execution run = endlessRun();
        local.started(run);

        assertThatThrownBy(run::await)
                .isInstanceOf(NodeFailedException.class)
                .satisfies(e -> assertThat(((NodeFailedException) e).nodeName()).isEqualTo("group C"))
                .hasMessageContaining("C is missing");
        assertThat(local.stopped()).isTrue();
    }

    @Test
    void shouldFailARunningRunAtOnce() {
        LocalRun local = new LocalRun();
        Execution run = endlessRun();
        local.started(run);

        local.fail("group B", "connection", new IllegalStateException("B closed its connection"));

        assertThatThrownBy(run::await)
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("B closed its connection");
    }
}
