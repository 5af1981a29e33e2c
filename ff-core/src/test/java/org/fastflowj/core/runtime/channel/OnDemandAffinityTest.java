package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.WorkerAffinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An on-demand dispatch with a farm's worker affinity, driven by hand on one thread (no runner threads):
 * an item goes to a slot it prefers while one has room, else round-robin to any slot with room, and every
 * placement is counted where a recoverable farm's books read it.
 */
@Timeout(10)
class OnDemandAffinityTest {
    /** A channel end with no thread: only its park state is read, and it never parks here. */
    private static final class Idle extends ChannelEnd {
        Idle(String name) {
            super(name);
        }

        @Override
        public SpscChannel[] inputs() {
            return new SpscChannel[0];
        }

        @Override
        protected SpscChannel[] consumed() {
            return new SpscChannel[0];
        }

        @Override
        protected SpscChannel[] produced() {
            return new SpscChannel[0];
        }

        @Override
        public boolean sendsChunks() {
            return false;
        }

        @Override
        public NodeStats stats() {
            return null;
        }

        @Override
        public void run() {}
    }

    private final SpscChannel[] slots = new SpscChannel[3];
    private final OnDemandDispatch dispatch;

    OnDemandAffinityTest() {
        Idle producer = new Idle("emitter");
        for (int k = 0; k < slots.length; k++) {
            slots[k] = SpscChannel.bounded(1, false, "slot " + k);
            slots[k].producer = producer;
            slots[k].consumer = new Idle("worker " + k);
        }
        SpscChannel staging = SpscChannel.bounded(16, false, "staging");
        staging.producer = producer;
        dispatch = new OnDemandDispatch(staging, slots);
        for (SpscChannel slot : slots) {
            slot.dispatch = dispatch;
        }
        dispatch.countPlacements();
    }

    /** Items are strings; "to 1 and 2 #3" prefers workers 1 and 2, "any #0" none. */
    private static final Map<String, int[]> PREFERENCES =
            Map.of("to 1", new int[] {1}, "to 1 and 2", new int[] {1, 2}, "to 7", new int[] {7});

    private static final WorkerAffinity BY_NAME = item -> PREFERENCES.get(((String) item).split(" #")[0]);

    private void stage(String... items) {
        for (String item : items) {
            assertThat(dispatch.staging.offer(item)).isTrue();
        }
        dispatch.run(null);
    }

    private Object take(int slot) {
        return slots[slot].poll();
    }

    @Test
    void shouldPutAnItemInASlotItPrefersWhileOneHasRoomElseInAnyWithRoom() {
        dispatch.prefer(BY_NAME);

        stage("to 1 #0"); // round-robin alone would pick slot 0
        assertThat(take(1)).isEqualTo("to 1 #0");

        stage("to 1 #1", "to 1 #2", "any #3");
        assertThat(take(1)).isEqualTo("to 1 #1");
        assertThat(take(0)).isEqualTo("to 1 #2"); // slot 1 was full: the next with room, from the cursor
        assertThat(take(2)).isEqualTo("any #3");

        assertThat(new long[] {dispatch.placed(0), dispatch.placed(1), dispatch.placed(2)})
                .containsExactly(1, 2, 1);
    }

    @Test
    void shouldTakeThePreferredSlotsInTurn() {
        dispatch.prefer(BY_NAME);

        stage("to 1 and 2 #0", "to 1 and 2 #1");
        assertThat(take(1)).isEqualTo("to 1 and 2 #0");
        assertThat(take(2)).isEqualTo("to 1 and 2 #1");
        stage("to 1 and 2 #2");
        assertThat(take(1)).isEqualTo("to 1 and 2 #2"); // after 2 comes 1 again
        assertThat(dispatch.hasWork()).isFalse();
    }

    @Test
    void shouldSkipTheSlotOfAConsumerThatIsGoneLikeAFullOne() {
        dispatch.prefer(BY_NAME);
        slots[1].consumerGone = true; // its group was lost: the item must go to a worker that is left

        stage("to 1 #0");

        assertThat(take(0)).isEqualTo("to 1 #0");
        assertThat(dispatch.placed(1)).isZero();
    }

    @Test
    void shouldRefuseAPreferenceForAWorkerTheFarmDoesNotHave() {
        dispatch.prefer(BY_NAME);
        dispatch.staging.offer("to 7 #0");

        assertThatThrownBy(() -> dispatch.run(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the farm's worker affinity prefers worker 7 for to 7 #0, but the farm has 3 workers");
        assertThat(dispatch.role).isZero(); // let go of, so the run can end
    }

    @Test
    void shouldHandOutRoundRobinWithoutAffinity() {
        stage("to 1 #0", "to 1 #1");

        assertThat(take(0)).isEqualTo("to 1 #0");
        assertThat(take(1)).isEqualTo("to 1 #1");
    }
}
