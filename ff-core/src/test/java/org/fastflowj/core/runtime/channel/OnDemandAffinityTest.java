package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.WorkerAffinity;
import org.fastflowj.core.spi.Sentinel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An on-demand dispatch with a farm's worker affinity, driven by hand on one thread (no runner threads):
 * an item goes to a slot of its set when one has room and is held while none has, the items behind it
 * going on; a slot with room takes it once nothing else is staged, and before an end; every placement is
 * counted where a recoverable farm's books read it, and a held item keeps those books open.
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

    /** Items are strings; "to 1 #3" prefers set 0 (worker 1), "to 1 and 2 #3" set 1, "any #0" none. */
    private static final int[][] SETS = {{1}, {1, 2}, {0}};

    private static final Map<String, Integer> SET_OF = Map.of("to 1", 0, "to 1 and 2", 1, "to 0", 2, "to 9", 9);

    private static final WorkerAffinity BY_NAME = item -> SET_OF.getOrDefault(((String) item).split(" #")[0], -1);

    private void stage(String... items) {
        for (String item : items) {
            assertThat(dispatch.staging.offer(item)).isTrue();
        }
        dispatch.run(null);
    }

    private Object take(int slot) {
        return slots[slot].poll();
    }

    private long[] placed() {
        return new long[] {dispatch.placed(0), dispatch.placed(1), dispatch.placed(2)};
    }

    @Test
    void shouldPutAnItemInASlotOfItsSetAndHoldItWhileNoneHasRoom() {
        dispatch.prefer(SETS, BY_NAME);

        stage("to 1 #0"); // round-robin alone would pick slot 0
        assertThat(slots[1].hasItems()).isTrue();
        stage("any #1", "any #2"); // slots 0 and 2: every slot is full

        stage("to 1 #3", "any #4");
        assertThat(dispatch.allPlaced()).as("to 1 #3 is held, any #4 staged").isFalse();
        assertThat(take(1)).isEqualTo("to 1 #0");
        dispatch.run(null); // slot 1 has room: the held item goes there, before any #4
        assertThat(take(1)).isEqualTo("to 1 #3");
        assertThat(take(0)).isEqualTo("any #1");
        dispatch.run(null);
        assertThat(take(0)).isEqualTo("any #4");
        assertThat(take(2)).isEqualTo("any #2");
        assertThat(dispatch.allPlaced()).isTrue();
        assertThat(placed()).containsExactly(2, 2, 1);
    }

    @Test
    void shouldLetTheItemsBehindAHeldOneGoOn() {
        dispatch.prefer(SETS, BY_NAME);
        stage("to 1 #0", "any #1"); // slots 1 and 0

        stage("to 1 #2", "any #3"); // to 1 #2 held, any #3 to slot 2

        assertThat(take(2)).isEqualTo("any #3");
        assertThat(dispatch.allPlaced()).isFalse();
    }

    @Test
    void shouldTakeTheSlotsOfASetInTurn() {
        dispatch.prefer(SETS, BY_NAME);

        stage("to 1 and 2 #0", "to 1 and 2 #1");
        assertThat(take(1)).isEqualTo("to 1 and 2 #0");
        assertThat(take(2)).isEqualTo("to 1 and 2 #1");
        stage("to 1 and 2 #2");
        assertThat(take(1)).isEqualTo("to 1 and 2 #2"); // after 2 comes 1 again
        assertThat(dispatch.hasWork()).isFalse();
    }

    @Test
    void shouldGiveAHeldItemToAnySlotWithRoomOnceNothingElseIsStaged() {
        dispatch.prefer(SETS, BY_NAME);

        stage("to 1 #0", "to 1 #1"); // the second is held (slot 1 full) until staging runs empty

        assertThat(take(1)).isEqualTo("to 1 #0");
        assertThat(take(0)).isEqualTo("to 1 #1");
        assertThat(dispatch.allPlaced()).isTrue();
    }

    @Test
    void shouldHandTheHeldItemsOutBeforeTheEnd() {
        dispatch.prefer(SETS, BY_NAME);
        stage("to 1 #0", "any #1", "any #2"); // every slot full
        stage("to 1 #3", "to 1 #4"); // both held
        assertThat(dispatch.staging.offer(Sentinel.EOS)).isTrue();
        dispatch.run(null);
        assertThat(dispatch.allPlaced())
                .as("the end waits behind the held items")
                .isFalse();

        assertThat(take(0)).isEqualTo("any #1");
        dispatch.run(null);
        assertThat(take(0)).as("a held item, before the end").isIn("to 1 #3", "to 1 #4");
        assertThat(take(2)).isEqualTo("any #2");
        dispatch.run(null);
        assertThat(take(2)).isIn("to 1 #3", "to 1 #4");
        dispatch.run(null);

        assertThat(dispatch.allPlaced()).isTrue();
        assertThat(take(0)).isEqualTo(Sentinel.EOS);
        assertThat(take(2)).isEqualTo(Sentinel.EOS);
        assertThat(take(1)).isEqualTo("to 1 #0");
    }

    @Test
    void shouldPlaceTheItemsOfASetWhoseConsumersAreGoneAnywhere() {
        dispatch.prefer(SETS, BY_NAME);
        slots[1].consumerGone = true; // its group was lost: its items must go to the workers that are left

        stage("to 1 #0", "to 1 #1");

        assertThat(take(0)).isEqualTo("to 1 #0");
        assertThat(take(2)).isEqualTo("to 1 #1");
        assertThat(dispatch.placed(1)).isZero();
        assertThat(dispatch.allPlaced()).isTrue();
    }

    @Test
    void shouldRefuseASetTheFarmDoesNotHave() {
        dispatch.prefer(SETS, BY_NAME);
        dispatch.staging.offer("to 9 #0");

        assertThatThrownBy(() -> dispatch.run(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the farm's worker affinity gives set 9 for to 9 #0, but it has 3 sets of workers");
        assertThat(dispatch.role).isZero(); // let go of, so the run can end
    }

    @Test
    void shouldHandOutRoundRobinWithoutAffinity() {
        stage("to 1 #0", "to 1 #1");

        assertThat(take(0)).isEqualTo("to 1 #0");
        assertThat(take(1)).isEqualTo("to 1 #1");
    }
}
