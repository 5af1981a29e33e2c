package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The remote on-demand window: one slot's worth for coarse-grained workers, two for fine-grained ones. */
class OnDemandWindowTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void startsAtOneSlotsWorthAsInOneProcess() {
        assertThat(new OnDemandWindow(1).window()).isEqualTo(1);
        assertThat(new OnDemandWindow(3).window()).isEqualTo(3);
    }

    @Test
    void aFineGrainedWorkerGetsASecondSlotsWorthToCoverTheRoundTrip() {
        OnDemandWindow w = new OnDemandWindow(2);
        w.taken(1, 0); // sets the clock only
        assertThat(w.window()).isEqualTo(2);
        w.taken(4, 2 * MS); // 0.5 ms per take
        assertThat(w.window()).isEqualTo(2 * OnDemandWindow.FINE_WINDOW_PER_SLOT);
    }

    @Test
    void aCoarseGrainedWorkerKeepsOneSlotsWorth() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        for (int i = 0; i < 5; i++) {
            w.taken(1, now);
            now += 100 * MS; // FastFlow's test_a2aOnDemand2: a 100 ms sink
            assertThat(w.window()).isEqualTo(1);
        }
    }

    @Test
    void followsAWorkerWhoseTasksChangeGrain() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        w.taken(1, now);
        for (int i = 0; i < 4; i++) {
            now += MS;
            w.taken(1, now);
        }
        assertThat(w.window()).isEqualTo(2);
        for (int i = 0; i < 4; i++) {
            now += 200 * MS;
            w.taken(1, now);
        }
        assertThat(w.window()).isEqualTo(1);
    }

    @Test
    void nothingTakenChangesNothing() {
        OnDemandWindow w = new OnDemandWindow(1);
        w.taken(1, 0);
        w.taken(1, MS);
        w.taken(0, 10_000 * MS);
        assertThat(w.window()).isEqualTo(2);
    }

    @Test
    void anEdgeWithoutSlotsIsRefused() {
        assertThatThrownBy(() -> new OnDemandWindow(0)).hasMessageContaining("at least one slot");
    }
}
