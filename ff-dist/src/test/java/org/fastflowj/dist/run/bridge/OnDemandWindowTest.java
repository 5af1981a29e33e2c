package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.dist.run.bridge.OnDemandWindow.CROWDED;
import static org.fastflowj.dist.run.bridge.OnDemandWindow.STARVED;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The remote on-demand window: one slot's worth until the worker waits for items the window held back, then
 * one more per such wait, one less per window's worth of takes whose items had to wait for room; fine-grained
 * workers within two slots.
 */
class OnDemandWindowTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void startsAtOneSlotsWorthAsInOneProcess() {
        assertThat(new OnDemandWindow(1).window()).isEqualTo(1);
        assertThat(new OnDemandWindow(3).window()).isEqualTo(3);
    }

    @Test
    void aWorkerThatWaitsWhileItemsAreHeldBackGetsOneMorePerWait() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        w.taken(1, 0, true, now);
        for (int i = 2; i <= 5; i++) {
            now += 2 * MS; // a 2 ms worker whose round trip is longer than its task
            w.taken(1, STARVED, true, now);
            assertThat(w.window()).isEqualTo(i);
        }
    }

    @Test
    void aWorkerWhoseItemsWaitForRoomAWindowInARowGetsOneLessDownToOneSlotsWorth() {
        OnDemandWindow w = new OnDemandWindow(2);
        long now = 0;
        for (int i = 0; i < 4; i++) {
            now += 2 * MS;
            w.taken(1, STARVED, true, now);
        }
        assertThat(w.window()).isEqualTo(6);
        for (int expected : new int[] {6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 4}) {
            now += 2 * MS;
            w.taken(1, CROWDED, true, now);
            assertThat(w.window()).isEqualTo(expected);
        }
        for (int i = 0; i < 20; i++) {
            w.taken(1, CROWDED, true, now += 2 * MS);
        }
        assertThat(w.window()).isEqualTo(2);
    }

    @Test
    void aReportNeitherStarvedNorCrowdedStartsTheCrowdedCountOver() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        w.taken(1, STARVED, true, now);
        w.taken(1, STARVED, true, now += 2 * MS);
        assertThat(w.window()).isEqualTo(3);
        for (int i = 0; i < 10; i++) {
            w.taken(1, CROWDED, true, now += 2 * MS);
            w.taken(1, CROWDED, true, now += 2 * MS);
            w.taken(1, 0, true, now += 2 * MS);
        }
        assertThat(w.window()).isEqualTo(3);
    }

    @Test
    void aWaitWithNothingHeldBackIsTheProducersNotTheWindows() {
        OnDemandWindow w = new OnDemandWindow(1);
        w.taken(1, STARVED, false, 0);
        w.taken(1, STARVED, false, 5 * MS);
        assertThat(w.window()).isEqualTo(1);
    }

    @Test
    void aWorkerThatWaitedCountsAsStarvedEvenIfAnItemCrowdedToo() {
        OnDemandWindow w = new OnDemandWindow(1);
        w.taken(1, STARVED, true, 0);
        w.taken(1, STARVED | CROWDED, true, 3 * MS);
        assertThat(w.window()).isEqualTo(3);
    }

    @Test
    void aCoarseGrainedWorkerThatNeverWaitsKeepsOneSlotsWorth() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        for (int i = 0; i < 5; i++) {
            w.taken(1, 0, true, now);
            now += 100 * MS; // FastFlow's test_a2aOnDemand2: a 100 ms sink
            assertThat(w.window()).isEqualTo(1);
        }
    }

    @Test
    void aFineGrainedWorkerStaysWithinTwoSlotsWorth() {
        OnDemandWindow w = new OnDemandWindow(2);
        long now = 0;
        w.taken(1, 0, true, now);
        for (int i = 0; i < 10; i++) {
            now += 50_000; // a take every 50 us: cheaper than a trip over the network
            w.taken(1, STARVED, true, now);
        }
        assertThat(w.window()).isEqualTo(2 * OnDemandWindow.FINE_WINDOW_PER_SLOT);
    }

    @Test
    void growsAtMostToTheLargestWindow() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        for (int i = 0; i < 100; i++) {
            now += 2 * MS;
            w.taken(1, STARVED, true, now);
        }
        assertThat(w.window()).isEqualTo(OnDemandWindow.MAX_WINDOW_PER_SLOT);
    }

    @Test
    void aWorkerThatBecomesFineGrainedFallsBackWithinTwoSlotsWorth() {
        OnDemandWindow w = new OnDemandWindow(1);
        long now = 0;
        for (int i = 0; i < 8; i++) {
            now += 5 * MS;
            w.taken(1, STARVED, true, now);
        }
        assertThat(w.window()).isEqualTo(9);
        for (int i = 0; i < 20; i++) {
            now += 10_000;
            w.taken(1, 0, true, now);
        }
        assertThat(w.window()).isEqualTo(OnDemandWindow.FINE_WINDOW_PER_SLOT);
    }

    @Test
    void nothingTakenAndNoSignalChangesNothing() {
        OnDemandWindow w = new OnDemandWindow(1);
        w.taken(1, STARVED, true, 0);
        w.taken(1, STARVED, true, MS);
        w.taken(0, 0, true, 10_000 * MS);
        assertThat(w.window()).isEqualTo(3);
    }

    @Test
    void anEdgeWithoutSlotsIsRefused() {
        assertThatThrownBy(() -> new OnDemandWindow(0)).hasMessageContaining("at least one slot");
    }
}
