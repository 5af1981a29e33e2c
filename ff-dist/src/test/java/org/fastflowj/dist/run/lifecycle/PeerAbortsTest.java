package org.fastflowj.dist.run.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fastflowj.core.NodeFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PeerAbortsTest {
    @Test
    @Timeout(20)
    void anInterruptedEndHookStillWaitsUntilTheFailureHookSentTheAborts() throws Exception {
        GroupLinks links = new GroupLinks("A", (origin, phase, cause) -> {});
        links.expectEnds(Set.of("A", "B"));
        PeerAborts aborts = new PeerAborts("A", links, 5_000);
        aborts.watchFreezes();
        AtomicBoolean abortStarted = new AtomicBoolean();
        AtomicBoolean returnedAfterTheAbort = new AtomicBoolean();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        // The run's failure interrupts the node thread that runs the end hook.
        Thread endHook = new Thread(() -> {
            Thread.currentThread().interrupt();
            aborts.awaitSent();
            returnedAfterTheAbort.set(abortStarted.get());
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        try {
            endHook.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (endHook.getState() != Thread.State.TIMED_WAITING
                    && endHook.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            abortStarted.set(true);
            aborts.abort(new NodeFailedException("group B", "abort", new IllegalStateException("the sink failed")));
            endHook.join(10_000);

            assertThat(returnedAfterTheAbort)
                    .as("the end hook waited for the ABORTs")
                    .isTrue();
            assertThat(stillInterrupted)
                    .as("the interrupt is kept for the caller")
                    .isTrue();
        } finally {
            endHook.interrupt();
            aborts.close();
        }
    }
}
