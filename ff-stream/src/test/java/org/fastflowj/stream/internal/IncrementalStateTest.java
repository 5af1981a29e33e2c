package org.fastflowj.stream.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.KeyedProcessFunction;
import org.fastflowj.stream.KeyedStates;
import org.fastflowj.stream.ListState;
import org.fastflowj.stream.MapState;
import org.fastflowj.stream.ValueState;
import org.junit.jupiter.api.Test;

/**
 * Incremental checkpoints of operator nodes: a whole snapshot, then change sets, restored in order on a
 * fresh node, give a state that behaves as the original's; a change set of keyed state holds only the
 * keys that changed.
 */
class IncrementalStateTest {
    /** A record for {@link Keeper}: what to do with the key's state. */
    record Op(String key, String what, long value) {}

    /** Keeps a sum, a list and a map per key, and an event-time and a processing-time timer per key. */
    static final class Keeper extends KeyedProcessFunction<String, Op, String> {
        private ValueState<Long> sum;
        private ListState<Long> values;
        private MapState<Long, String> seen;

        @Override
        public void open(KeyedStates states) {
            sum = states.value("sum");
            values = states.list("values");
            seen = states.map("seen");
        }

        @Override
        public void processElement(Op op, Context<String, String> ctx) {
            long timer = timerOf(op.key());
            // Only "peek" reads the state, as a read may note its key as changed.
            switch (op.what()) {
                case "add" -> {
                    sum.update(sum.value() == null ? op.value() : sum.value() + op.value());
                    values.add(op.value());
                    seen.put(op.value(), "v" + op.value());
                    ctx.registerEventTimeTimer(timer);
                    ctx.registerProcessingTimeTimer(4_000_000_000_000L + timer);
                }
                case "clear" -> {
                    sum.clear();
                    values.clear();
                    seen.clear();
                    ctx.deleteEventTimeTimer(timer);
                    ctx.deleteProcessingTimeTimer(4_000_000_000_000L + timer);
                }
                case "remove" -> seen.remove(op.value());
                case "peek" -> ctx.emit(describe(ctx.key()));
                default -> throw new IllegalArgumentException(op.what());
            }
        }

        @Override
        public void onTimer(long time, Context<String, String> ctx) {
            ctx.emit("timer " + time + " " + describe(ctx.key()));
            sum.clear();
            values.clear();
        }

        @Override
        public void onProcessingTimer(long time, Context<String, String> ctx) {
            ctx.emit("processing timer " + time + " " + describe(ctx.key()));
        }

        private String describe(String key) {
            return key + ": " + sum.value() + " " + values.get() + " " + new TreeMap<>(seen.entries());
        }

        /** A time of its own for each key, so that timers fire in one order. */
        static long timerOf(String key) {
            return 10_000 + Long.parseLong(key.substring(1));
        }
    }

    /** The end of a chain: keeps what reaches it. */
    static final class Collect extends Operator {
        final List<String> got = new ArrayList<>();

        @Override
        public void processRecord(Object value, long timestamp) {
            got.add(value + " @" + timestamp);
        }

        @Override
        public void processWatermark(long time) {
            got.add("watermark " + time);
        }
    }

    /** An operator node, its output collected. */
    static final class Chain {
        final Operator operator;
        final OperatorNode node;
        final Collect out = new Collect();

        Chain(Operator operator) throws Exception {
            this(operator, false);
        }

        /** {@code trackFirst}: changes are tracked from before the operator opens. */
        Chain(Operator operator, boolean trackFirst) throws Exception {
            this.operator = operator;
            node = new OperatorNode(operator, info(), ErrorHandler.FAIL);
            OperatorNode end = new OperatorNode(out, info(), ErrorHandler.FAIL);
            node.chainTo(end);
            if (trackFirst) {
                node.trackChanges();
            }
            node.svcInit();
            end.svcInit();
        }

        void add(String key, String what, long value) {
            node.record(new Op(key, what, value), value);
        }

        byte[] snapshot(long id) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            node.snapshot(id, new DataOutputStream(bytes));
            return bytes.toByteArray();
        }

        byte[] changes(long id) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            node.snapshotChanges(id, new DataOutputStream(bytes));
            return bytes.toByteArray();
        }

        void restore(byte[] full, byte[]... changes) throws IOException {
            node.restore(new DataInputStream(new ByteArrayInputStream(full)));
            for (byte[] c : changes) {
                node.restoreChanges(new DataInputStream(new ByteArrayInputStream(c)));
            }
        }
    }

    private static OperatorInfo info() {
        return new OperatorInfo("op", 0, 1, new OperatorInfo.Counters());
    }

    private static ProcessOperator keeper() {
        return new ProcessOperator((Op op) -> op.key(), new Keeper());
    }

    private static String k(int i) {
        return "k" + i;
    }

    /** The byte after the watermark: which kind of change set. */
    private static byte kind(byte[] changeSet) {
        return changeSet[Long.BYTES];
    }

    @Test
    void valueListAndMapStateAndTimersRestoredFromAWholeStateAndTwoChangeSetsBehaveAsTheOriginal() throws Exception {
        Chain original = new Chain(keeper());
        original.node.trackChanges();
        for (int i = 0; i < 50; i++) {
            original.add(k(i), "add", i);
            original.add(k(i), "add", 100 + i);
        }
        original.node.watermark(5);
        byte[] full = original.snapshot(1);

        for (int i = 0; i < 10; i++) {
            original.add(k(i), "add", 200 + i);
        }
        for (int i = 10; i < 15; i++) {
            original.add(k(i), "clear", 0);
        }
        for (int i = 30; i < 35; i++) {
            original.add(k(i), "remove", 100 + i);
        }
        for (int i = 100; i < 110; i++) {
            original.add(k(i), "add", i);
        }
        // Fires the event-time timers of k0 to k20 (not k10 to k14, deleted): they clear sum and values.
        original.node.watermark(10_020);
        byte[] c1 = original.changes(2);

        for (int i = 20; i < 30; i++) {
            original.add(k(i), "add", 300 + i);
        }
        original.add(k(40), "clear", 0);
        original.add(k(41), "remove", 41);
        original.add(k(41), "remove", 141);
        for (int i = 200; i < 206; i++) {
            original.add(k(i), "add", i);
        }
        original.add(k(0), "add", 7);
        byte[] c2 = original.changes(3);

        assertThat(kind(c1)).isEqualTo(OperatorNode.CHANGES);
        assertThat(kind(c2)).isEqualTo(OperatorNode.CHANGES);
        assertThat(c2.length).isLessThan(full.length);

        Chain restored = new Chain(keeper());
        restored.restore(full, c1, c2);
        restored.node.trackChanges();
        assertSameFrom(original, restored);
    }

    @Test
    void aNodeRestoredFromChangesWritesChangesAfterThemThatRestoreInTurn() throws Exception {
        Chain original = new Chain(keeper());
        original.node.trackChanges();
        for (int i = 0; i < 40; i++) {
            original.add(k(i), "add", i);
        }
        byte[] full = original.snapshot(1);
        for (int i = 0; i < 10; i++) {
            original.add(k(i), "add", 50 + i);
        }
        byte[] c1 = original.changes(2);

        // A restart from checkpoint 2 goes on from there, then writes checkpoint 3 as changes.
        Chain restarted = new Chain(keeper());
        restarted.restore(full, c1);
        restarted.node.trackChanges();
        restarted.add(k(3), "clear", 0);
        restarted.add(k(5), "remove", 55);
        restarted.add(k(60), "add", 60);
        restarted.node.watermark(10_020);
        byte[] c2 = restarted.changes(3);

        Chain again = new Chain(keeper());
        again.restore(full, c1, c2);
        again.node.trackChanges();
        assertSameFrom(restarted, again);
    }

    /**
     * Shows both the state of each key they may hold, then ends the stream, which fires the timers left:
     * the same output.
     */
    private static void assertSameFrom(Chain original, Chain restored) {
        original.out.got.clear();
        restored.out.got.clear();
        for (Chain chain : List.of(original, restored)) {
            for (int i = 0; i < 210; i++) {
                chain.add(k(i), "peek", 0);
            }
            chain.node.watermark(Long.MAX_VALUE);
        }
        assertThat(original.out.got).hasSizeGreaterThan(210);
        assertThat(restored.out.got).containsExactlyElementsOf(original.out.got);
    }

    @Test
    void aChangeSetOfOneKeyOfAHundredThousandIsASmallPartOfTheWholeState() throws Exception {
        Chain process = new Chain(keeper());
        process.node.trackChanges();
        for (int i = 0; i < 100_000; i++) {
            process.add(k(i), "add", i);
        }
        byte[] full = process.snapshot(1);
        process.add(k(77_777), "add", 1);
        byte[] changes = process.changes(2);
        assertThat(kind(changes)).isEqualTo(OperatorNode.CHANGES);
        assertThat((double) changes.length).isLessThan(full.length * 0.01);
        // Nothing changed since: no key.
        assertThat(process.changes(3).length).isLessThan(changes.length);

        Chain restored = new Chain(keeper());
        restored.restore(full, changes);
        process.out.got.clear();
        for (Chain chain : List.of(process, restored)) {
            chain.add(k(77_776), "peek", 0);
            chain.add(k(77_777), "peek", 0);
            chain.add(k(99_999), "peek", 0);
        }
        assertThat(process.out.got).hasSize(3);
        assertThat(restored.out.got).containsExactlyElementsOf(process.out.got);
    }

    /** Counts per key in a {@code long[]} it changes in place, not through {@code update}. */
    static final class InPlace extends KeyedProcessFunction<String, Op, String> {
        private ValueState<long[]> count;

        @Override
        public void open(KeyedStates states) {
            count = states.value("count");
        }

        @Override
        public void processElement(Op op, Context<String, String> ctx) {
            long[] c = count.value();
            if (c == null) {
                count.update(new long[] {1});
            } else {
                c[0]++;
            }
            ctx.emit(op.key() + "=" + count.value()[0]);
        }
    }

    @Test
    void aValueChangedInPlaceIsInTheChangeSet() throws Exception {
        Supplier<Operator> counts = () -> new ProcessOperator((Op op) -> op.key(), new InPlace());
        Chain original = new Chain(counts.get(), true);
        for (int i = 0; i < 1000; i++) {
            original.add(k(i % 10), "add", i);
        }
        byte[] full = original.snapshot(1);
        for (int i = 0; i < 5; i++) {
            original.add(k(3), "add", i);
        }
        byte[] changes = original.changes(2);
        assertThat(((ProcessOperator) original.operator).changesNoted()).isZero();

        Chain restored = new Chain(counts.get());
        restored.restore(full, changes);
        original.out.got.clear();
        for (Chain chain : List.of(original, restored)) {
            for (int i = 0; i < 10; i++) {
                chain.add(k(i), "add", 0);
            }
        }
        assertThat(original.out.got).contains("k3=106 @0");
        assertThat(restored.out.got).containsExactlyElementsOf(original.out.got);
    }

    private static RollingOperator rolling() {
        return new RollingOperator((Op op) -> op.key(), Aggregates.summingLong((Op op) -> op.value()));
    }

    @Test
    void aRollingAggregateRestoredFromAWholeStateAndTwoChangeSetsBehavesAsTheOriginal() throws Exception {
        Chain original = new Chain(rolling());
        original.node.trackChanges();
        for (int i = 0; i < 100_000; i++) {
            original.add(k(i), "add", i);
        }
        byte[] full = original.snapshot(1);
        original.add(k(5), "add", 10);
        byte[] c1 = original.changes(2);
        assertThat(kind(c1)).isEqualTo(OperatorNode.CHANGES);
        assertThat((double) c1.length).isLessThan(full.length * 0.01);
        for (int i = 0; i < 20; i++) {
            original.add(k(i), "add", 1);
        }
        original.add(k(100_000), "add", 3);
        byte[] c2 = original.changes(3);

        Chain restored = new Chain(rolling());
        restored.restore(full, c1, c2);
        original.out.got.clear();
        for (Chain chain : List.of(original, restored)) {
            for (int i = 0; i < 30; i++) {
                chain.add(k(i), "add", 1);
            }
            chain.add(k(100_000), "add", 1);
            chain.add(k(100_001), "add", 1);
        }
        assertThat(restored.out.got).hasSize(32).containsExactlyElementsOf(original.out.got);
    }

    @Test
    void aWindowWritesItsWholeStateInEachChangeSetAndIsRestoredFromIt() throws Exception {
        Supplier<Operator> windows = () -> new CountWindowOperator(
                (Op op) -> op.key(), Aggregates.summingLong((Op op) -> op.value()), WindowEmitter.results(), 3);
        Chain original = new Chain(windows.get());
        original.node.trackChanges();
        for (int i = 0; i < 20; i++) {
            original.add(k(i % 7), "add", i);
        }
        byte[] full = original.snapshot(1);
        for (int i = 0; i < 5; i++) {
            original.add(k(i), "add", 100 + i);
        }
        original.node.watermark(100);
        byte[] c1 = original.changes(2);
        original.add(k(9), "add", 9);
        byte[] c2 = original.changes(3);
        assertThat(kind(c1)).isEqualTo(OperatorNode.WHOLE);
        assertThat(kind(c2)).isEqualTo(OperatorNode.WHOLE);

        Chain restored = new Chain(windows.get());
        restored.restore(full, c1, c2);
        original.out.got.clear();
        for (Chain chain : List.of(original, restored)) {
            for (int i = 0; i < 10; i++) {
                chain.add(k(i), "add", 1000 + i);
            }
            chain.node.watermark(Long.MAX_VALUE);
        }
        assertThat(original.out.got).hasSizeGreaterThan(8);
        assertThat(restored.out.got).containsExactlyElementsOf(original.out.got);
        assertThat(restored.operator.watermark).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void withoutTrackChangesNothingIsNotedAndAChangeSetHoldsTheWholeState() throws Exception {
        Chain process = new Chain(keeper());
        Chain rolling = new Chain(rolling());
        for (int i = 0; i < 100; i++) {
            process.add(k(i), "add", i);
            rolling.add(k(i), "add", i);
        }
        process.node.watermark(10_050);
        assertThat(((ProcessOperator) process.operator).changesNoted()).isZero();
        assertThat(((RollingOperator) rolling.operator).changesNoted()).isZero();

        byte[] whole = process.changes(1);
        assertThat(kind(whole)).isEqualTo(OperatorNode.WHOLE);
        Chain restored = new Chain(keeper());
        restored.restore(new Chain(keeper()).snapshot(0), whole);
        assertSameFrom(process, restored);
    }

    @Test
    void trackingNotesEachChangedKeyOnceAndASnapshotForgetsThem() throws Exception {
        Chain process = new Chain(keeper());
        process.node.trackChanges();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                process.add(k(i), "add", round);
            }
        }
        ProcessOperator operator = (ProcessOperator) process.operator;
        // Three states and two timers for each of ten keys.
        assertThat(operator.changesNoted()).isEqualTo(50);
        process.snapshot(1);
        assertThat(operator.changesNoted()).isZero();
    }
}
