package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Guide: state that survives a failure (docs/checkpoints.md). */
@Timeout(60)
class CheckpointsGuideTest {
    static final long COUNT = 20_000;

    @TempDir
    Path dir;

    // tag::source[]
    /** 0, 1, ..., count - 1: its position is all its state, so a restart reads on from there. */
    static final class Sequence extends Node<Void, Long> implements Checkpointed {
        private final long count;
        private long next;

        Sequence(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            return next < count ? Long.valueOf(next++) : eos();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(next);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            next = in.readLong();
        }
    }
    // end::source[]

    // tag::stateful[]
    /** A running sum: without its snapshot, a restart would start it from 0 again. */
    static final class RunningSum extends Node<Long, Long> implements Checkpointed {
        private long sum;

        @Override
        protected Long svc(Long x) {
            sum += x;
            return sum;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(sum);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            sum = in.readLong();
        }
    }
    // end::stateful[]

    // tag::sink[]
    /** Keeps what it was given; a restart drops what came after the checkpoint, which comes again. */
    static final class Results extends Node<Long, Void> implements Checkpointed {
        final List<Long> items = new ArrayList<>();

        @Override
        protected Void svc(Long x) {
            items.add(x);
            return goOn();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeInt(items.size());
        }

        @Override
        public void restore(DataInput in) throws IOException {
            int kept = in.readInt();
            // A run resumed from the store has a new, empty sink: what came before is the old run's output.
            items.subList(Math.min(kept, items.size()), items.size()).clear();
        }
    }
    // end::sink[]

    /** Fails once, on the first item after {@code armed} is set and the store holds two checkpoints. */
    static Node<Long, Long> failingOnce(AtomicBoolean armed, CheckpointStore store) {
        return new Node<>() {
            @Override
            protected Long svc(Long x) throws IOException {
                if (store.highestId() >= 2 && armed.compareAndSet(true, false)) {
                    throw new IllegalStateException("lost at " + x);
                }
                if (armed.get()) {
                    // slow until it fails, so a warm JVM cannot finish the run before the second checkpoint
                    LockSupport.parkNanos(20_000);
                }
                return x;
            }
        };
    }

    static List<Long> runningSums() {
        List<Long> sums = new ArrayList<>();
        long sum = 0;
        for (long x = 0; x < COUNT; x++) {
            sum += x;
            sums.add(sum);
        }
        return sums;
    }

    @Test
    void aFailedRunRestartsFromItsLastCheckpointAndGivesTheResultOfARunWithoutFailure() {
        AtomicBoolean armed = new AtomicBoolean(true);
        // tag::options[]
        CheckpointStore store = CheckpointStore.directory(dir.resolve("checkpoints"));
        Results results = new Results();
        new Pipeline(new Sequence(COUNT), failingOnce(armed, store), new RunningSum(), results)
                .runAndWaitEnd(RunOptions.defaults()
                        .checkpoints(Duration.ofMillis(5), store)
                        .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100))));
        // end::options[]

        assertThat(armed).as("the node failed once").isFalse();
        assertThat(results.items).isEqualTo(runningSums());
    }

    @Test
    void aNewRunResumesFromTheStoreOfAFailedOne() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir.resolve("checkpoints"));
        AtomicBoolean armed = new AtomicBoolean(true);
        Pipeline first = new Pipeline(new Sequence(COUNT), failingOnce(armed, store), new RunningSum(), new Results());
        assertThatThrownBy(() -> first.runAndWaitEnd(RunOptions.defaults().checkpoints(Duration.ofMillis(5), store)))
                .as("no restart strategy: the failure ends the run")
                .isInstanceOf(NodeFailedException.class);
        long resumedFrom = store.latest().orElseThrow().id();

        // tag::resume[]
        RunningSum sum = new RunningSum();
        Results results = new Results();
        new Pipeline(new Sequence(COUNT), Node.of((Long x) -> x), sum, results)
                .runAndWaitEnd(RunOptions.defaults()
                        .checkpoints(Duration.ofMillis(5), store)
                        .resumeFromCheckpoint(true));
        // end::resume[]

        // the second run gave only what came after the checkpoint, its running sum carried on from there
        List<Long> all = runningSums();
        assertThat(resumedFrom).isGreaterThanOrEqualTo(2);
        assertThat(results.items).isEqualTo(all.subList(all.size() - results.items.size(), all.size()));
        assertThat(results.items).isNotEmpty().hasSizeLessThan((int) COUNT);
    }

    @Test
    void aSourceThatKeepsNoPositionIsRefusedBeforeTheRun() {
        Node<Void, Long> once = new Node<>() {
            private long next;

            @Override
            protected Long svc(Void none) {
                return next < 10 ? Long.valueOf(next++) : eos();
            }
        };
        RunOptions options = RunOptions.defaults().checkpoints(Duration.ofSeconds(1), CheckpointStore.directory(dir));

        assertThatThrownBy(() -> new Pipeline(once, new Results()).runAndWaitEnd(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not replayable");
    }
}
