package org.fastflowj.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.stream.CollectSink;
import org.fastflowj.stream.JobFailedException;
import org.fastflowj.stream.Sink;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.fastflowj.stream.StreamJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka source's offsets and the transactional Kafka sink under checkpoints, against a real broker
 * started once for the class.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KafkaCheckpointTest {
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theSourceCommitsOnlyCompletedCheckpointsOffsetsAndARestartGivesEveryRecordOnce(@TempDir Path dir)
            throws Exception {
        String topic = "source-offsets";
        String group = topic + "-group";
        int partitions = 3;
        broker.createTopic(topic, partitions);
        int count = 30_000;
        StreamJob produce = StreamJob.named("produce-" + topic);
        produce.source(Sources.generator(count, 0, i -> i)).sink(KafkaSinks.<Long>of(broker.bootstrapServers(), topic));
        produce.run();

        // The group's coordinator ready (the broker makes its offsets topic at the first group's first
        // call): the first commits then succeed at once, rather than be retried until it is.
        broker.admin()
                .listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);

        CheckpointStore store = CheckpointStore.directory(dir);
        // Two readers and one map on a thread of its own: while the map pauses, the readers poll on until
        // its queue is full, and no checkpoint completes, as its barrier waits behind the paused record.
        AtomicLongArray lastSeen = new AtomicLongArray(partitions);
        for (int p = 0; p < partitions; p++) {
            lastSeen.set(p, -1);
        }
        AtomicBoolean pause = new AtomicBoolean(true);
        AtomicBoolean fail = new AtomicBoolean(true);
        List<String> ahead = new CopyOnWriteArrayList<>();
        AtomicLong committedDuringPause = new AtomicLong(-1);
        AtomicLong pausedAtCheckpoint = new AtomicLong();
        AtomicLong seen = new AtomicLong();
        CollectSink<Long> out = Sinks.collect();
        StreamJob consume = StreamJob.named("consume-" + topic);
        consume.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .groupId(group)
                        .bounded()
                        .property("max.poll.records", 200)
                        .build())
                .parallelism(2)
                .map(r -> {
                    // the store is listed only now and then, and the map slowed down so that the run sees
                    // a few dozen checkpoints
                    boolean look = seen.incrementAndGet() % 100 == 0;
                    if (look) {
                        sleep(2);
                    }
                    if (look && pause.get() && highestId(store) >= 4 && pause.compareAndSet(true, false)) {
                        pausedAtCheckpoint.set(highestId(store));
                        sleep(300);
                        // Every completed checkpoint's barrier came before r: the group's offset of r's
                        // partition is at most r's, of any other at most after the last record the map
                        // took from it. Committing at each poll would commit what the source read since.
                        Map<Integer, Long> committed = committedOffsets(group, topic);
                        long sum = 0;
                        for (var c : committed.entrySet()) {
                            long limit = c.getKey() == r.partition() ? r.offset() : lastSeen.get(c.getKey()) + 1;
                            if (c.getValue() > limit) {
                                ahead.add("partition " + c.getKey() + " committed at " + c.getValue()
                                        + " while the map held " + r.partition() + "/" + r.offset()
                                        + ", its last of that partition " + (limit - 1));
                            }
                            sum += c.getValue();
                        }
                        committedDuringPause.set(sum);
                    } else if (look
                            && !pause.get()
                            && highestId(store) > pausedAtCheckpoint.get()
                            && fail.compareAndSet(true, false)) {
                        throw new IllegalStateException("injected failure at " + r);
                    }
                    lastSeen.accumulateAndGet(r.partition(), r.offset(), Math::max);
                    return Long.parseLong(r.value());
                })
                .parallelism(1)
                .sink(out);
        consume.run(RunOptions.defaults()
                .checkpoints(Duration.ofMillis(20), store)
                .restartStrategy(RestartStrategy.fixedDelay(2, Duration.ofMillis(10))));

        assertThat(pause).as("the map paused").isFalse();
        assertThat(fail).as("the failure was injected").isFalse();
        assertThat(out.items())
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
        assertThat(ahead)
                .as("offsets committed ahead of a completed checkpoint")
                .isEmpty();
        assertThat(committedDuringPause.get())
                .as("offsets committed while the job ran")
                .isPositive();

        // After the run, the job's end committed each partition's end.
        Map<Integer, Long> committed = committedOffsets(group, topic);
        Map<Integer, Long> ends = endOffsets(topic, partitions);
        assertThat(committed).isEqualTo(ends);
    }

    private static Map<Integer, Long> committedOffsets(String group, String topic) {
        try {
            Map<Integer, Long> byPartition = new HashMap<>();
            broker.admin()
                    .listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((tp, at) -> {
                        if (tp.topic().equals(topic) && at != null) {
                            byPartition.put(tp.partition(), at.offset());
                        }
                    });
            return byPartition;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Map<Integer, Long> endOffsets(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<Integer, Long> ends = new HashMap<>();
        broker.admin()
                .listOffsets(latest)
                .all()
                .get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
        return ends;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long highestId(CheckpointStore store) {
        try {
            return store.highestId();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RunOptions checkpointsEvery50Ms(CheckpointStore store, RestartStrategy restarts) {
        return RunOptions.defaults().checkpoints(Duration.ofMillis(50), store).restartStrategy(restarts);
    }

    /** Fails once, at the first multiple of 50 after checkpoint 3 completed; counts the ids it passes on. */
    private static Function<Long, Long> failingOnceAfterCheckpoint3(
            CheckpointStore store, AtomicBoolean armed, AtomicLong written) {
        return i -> {
            if (i % 50 == 0 && armed.get() && highestId(store) >= 3 && armed.compareAndSet(true, false)) {
                throw new IllegalStateException("injected failure at " + i);
            }
            written.incrementAndGet();
            return i;
        };
    }

    /** Ids 0 to count - 1, 20 000 a second, each keyed by its last digit. */
    private static StreamJob idsToKafka(
            String name, String topic, int count, CheckpointStore store, AtomicBoolean armed, AtomicLong written) {
        StreamJob job = StreamJob.named(name);
        job.source(Sources.generator(count, 20_000, i -> i))
                .map(failingOnceAfterCheckpoint3(store, armed, written))
                .sink(exactlyOnceSink(topic, topic + "-tx"));
        return job;
    }

    private static Sink<Long> exactlyOnceSink(String topic, String prefix) {
        return KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                .key(i -> Long.toString(i % 10))
                .exactlyOnce(prefix)
                .build();
    }

    /** Every value of the topic, read to its end as a reader with {@code isolation.level} sees it. */
    private static List<Long> read(String topic, String isolation) {
        CollectSink<Long> out = Sinks.collect();
        StreamJob job = StreamJob.named("read-" + topic + "-" + isolation);
        job.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .bounded()
                        .timeout(Duration.ofSeconds(10))
                        .property("isolation.level", isolation)
                        .build())
                .parallelism(2)
                .map(r -> Long.parseLong(r.value()))
                .sink(out);
        job.run();
        return out.items();
    }

    @Test
    void aFailureMidStreamRestartsInProcessAndReadCommittedSeesEveryRecordOnce(@TempDir Path dir) throws Exception {
        String topic = "ids";
        broker.createTopic(topic, 3);
        int count = 10_000;
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicBoolean armed = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Function<Long, Long> failingOnce = failingOnceAfterCheckpoint3(store, armed, written);
        String bootstrapServers = broker.bootstrapServers();

        // tag::exactly-once[]
        // Ids to a topic in Kafka transactions, one per checkpoint interval. A failure restarts the job
        // from its last checkpoint: what was written after it is aborted, and written again.
        StreamJob write = StreamJob.named("ids-to-kafka");
        write.source(Sources.generator(count, 20_000, i -> i))
                .map(failingOnce)
                .sink(KafkaSinks.<Long>builder(bootstrapServers, "ids")
                        .key(i -> Long.toString(i % 10))
                        .exactlyOnce("ids-to-kafka") // transactional ids ids-to-kafka-0 and ids-to-kafka-1
                        .build());
        write.run(RunOptions.defaults()
                .checkpoints(Duration.ofMillis(50), store)
                .restartStrategy(RestartStrategy.fixedDelay(2, Duration.ofMillis(10))));

        // Only a read_committed reader skips the records of aborted transactions.
        CollectSink<KafkaRecord<String, String>> ids = Sinks.collect();
        StreamJob read = StreamJob.named("read-ids");
        read.source(KafkaSources.builder(bootstrapServers, "ids")
                        .property("isolation.level", "read_committed")
                        .bounded()
                        .build())
                .sink(ids);
        read.run();
        // end::exactly-once[]

        assertThat(armed).as("the failure was injected").isFalse();
        assertThat(written.get()).as("records written again after the restart").isGreaterThan(count);
        assertThat(ids.items())
                .extracting(r -> Long.parseLong(r.value()))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
        // The aborted records of the failed attempt are there too, for a reader that does not skip them.
        assertThat(read(topic, "read_uncommitted").size()).isGreaterThanOrEqualTo(count);
    }

    @Test
    void aRestartBetweenACheckpointsCompletionAndItsCommitCommitsItAtTheRestore(@TempDir Path dir) throws Exception {
        String topic = "commit-at-restore";
        broker.createTopic(topic, 3);
        int count = 10_000;
        CheckpointStore store = CheckpointStore.directory(dir);
        // Checkpoint 3's notice fails before it reaches the sink: the run restarts from checkpoint 3, whose
        // transaction is prepared and not committed; the restore must commit it, or its records are lost.
        AtomicBoolean armed = new AtomicBoolean(true);
        Sink<Long> sink = new FailingNotice<>(exactlyOnceSink(topic, topic + "-tx"), 3, armed);
        StreamJob job = StreamJob.named("write-" + topic);
        job.source(Sources.generator(count, 20_000, i -> i)).sink(sink);
        job.run(checkpointsEvery50Ms(store, RestartStrategy.fixedDelay(2, Duration.ofMillis(10))));

        assertThat(armed).as("the notice failed").isFalse();
        assertThat(read(topic, "read_committed"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
    }

    @Test
    void aTransactionPreparedByAProcessThatDiedIsCommittedByTheNextOnesRestore() throws Exception {
        String topic = "prepared-elsewhere";
        broker.createTopic(topic, 3);
        // The first sink prepares checkpoint 7's transaction and dies before the checkpoint's notice: its
        // producers go (a failed run leaves a prepared transaction open), its state is all that is left.
        Sink<Long> first = exactlyOnceSink(topic, topic + "-tx");
        first.open();
        for (long i = 0; i < 100; i++) {
            first.write(i);
        }
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        first.snapshot(7, new DataOutputStream(state));
        first.abort();

        // A new sink of the same prefix, as a new process has, restores checkpoint 7 and goes on.
        Sink<Long> second = exactlyOnceSink(topic, topic + "-tx");
        second.open();
        second.restore(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        for (long i = 100; i < 150; i++) {
            second.write(i);
        }
        second.commit();

        assertThat(read(topic, "read_committed"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 150).boxed().toList());
    }

    @Test
    void aRunThatFailedForGoodBeforeACheckpointsNoticeLeavesItsTransactionForTheResumedRun(@TempDir Path dir)
            throws Exception {
        String topic = "notice-never-came";
        broker.createTopic(topic, 3);
        int count = 10_000;
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicBoolean armed = new AtomicBoolean(true);
        StreamJob failing = StreamJob.named("write-" + topic);
        failing.source(Sources.generator(count, 20_000, i -> i))
                .sink(new FailingNotice<>(exactlyOnceSink(topic, topic + "-tx"), 3, armed));
        catchThrowableOfType(
                JobFailedException.class, () -> failing.run(checkpointsEvery50Ms(store, RestartStrategy.none())));
        assertThat(armed).as("checkpoint 3's notice failed").isFalse();

        StreamJob resumed = StreamJob.named("write-" + topic);
        resumed.source(Sources.generator(count, 20_000, i -> i)).sink(exactlyOnceSink(topic, topic + "-tx"));
        resumed.run(checkpointsEvery50Ms(store, RestartStrategy.none()).resumeFromCheckpoint(true));

        assertThat(read(topic, "read_committed"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
    }

    /** A sink whose notice of checkpoint {@code failing} throws once, before the sink hears of it. */
    private record FailingNotice<T>(Sink<T> sink, long failing, AtomicBoolean armed) implements Sink<T> {
        @Override
        public String name() {
            return sink.name();
        }

        @Override
        public void open() throws Exception {
            sink.open();
        }

        @Override
        public void write(T item) throws Exception {
            sink.write(item);
        }

        @Override
        public boolean exactlyOnce() {
            return sink.exactlyOnce();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            sink.snapshot(checkpointId, out);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            sink.restore(in);
        }

        @Override
        public void checkpointCompleted(long checkpointId) {
            if (checkpointId == failing && armed.compareAndSet(true, false)) {
                throw new IllegalStateException("injected failure of checkpoint " + checkpointId + "'s notice");
            }
            sink.checkpointCompleted(checkpointId);
        }

        @Override
        public void commit() throws Exception {
            sink.commit();
        }

        @Override
        public void abort() {
            sink.abort();
        }
    }

    @Test
    void aNewRunResumedFromTheStoreAfterAFailureForGoodLeavesEachRecordOnce(@TempDir Path dir) throws Exception {
        String topic = "exactly-once-resume";
        broker.createTopic(topic, 3);
        int count = 10_000;
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicBoolean armed = new AtomicBoolean(true);
        AtomicLong firstRun = new AtomicLong();
        StreamJob failing = idsToKafka("write-" + topic, topic, count, store, armed, firstRun);
        JobFailedException e = catchThrowableOfType(
                JobFailedException.class, () -> failing.run(checkpointsEvery50Ms(store, RestartStrategy.none())));
        assertThat(e).hasMessageContaining("injected failure");

        AtomicLong secondRun = new AtomicLong();
        idsToKafka("write-" + topic, topic, count, store, armed, secondRun)
                .run(checkpointsEvery50Ms(store, RestartStrategy.none()).resumeFromCheckpoint(true));

        assertThat(secondRun.get())
                .as("the second run went on from a checkpoint")
                .isLessThan(count);
        assertThat(read(topic, "read_committed"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
    }

    @Test
    void withoutCheckpointsTheRunIsOneTransactionCommittedAtItsEnd() {
        String topic = "exactly-once-plain";
        try {
            broker.createTopic(topic, 2);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        Sink<Long> sink = exactlyOnceSink(topic, topic + "-tx");
        assertThat(sink.exactlyOnce()).isTrue();
        assertThat(KafkaSinks.of(broker.bootstrapServers(), topic).exactlyOnce())
                .isFalse();
        StreamJob job = StreamJob.named("write-" + topic);
        job.source(Sources.generator(5_000, 0, i -> i)).sink(sink);
        job.run();

        assertThat(read(topic, "read_committed"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 5_000).boxed().toList());
    }

    @Test
    void aMissingPrefixIsRefusedNamingTheSinksTopic() {
        var builder = KafkaSinks.<Long>builder(broker.bootstrapServers(), "some-topic");
        assertThatThrownBy(() -> builder.exactlyOnce(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kafka(some-topic)")
                .hasMessageContaining("transactional id prefix");
        assertThatThrownBy(() -> builder.exactlyOnce(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.property("transactional.id", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set by the sink");
    }

    @Test
    void aBrokerThatRefusesTheTransactionsFailsTheJobBeforeItRunsNamingSinkAndTopic() throws Exception {
        String topic = "refused-transactions";
        broker.createTopic(topic, 1);
        StreamJob job = StreamJob.named("write-" + topic);
        job.source(Sources.of(List.of(1L, 2L)))
                .sink(KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                        .exactlyOnce(topic + "-tx")
                        // above the broker's transaction.max.timeout.ms (15 minutes by default)
                        .property("transaction.timeout.ms", 3_600_000)
                        .build());
        JobFailedException e = catchThrowableOfType(JobFailedException.class, job::run);
        assertThat(e)
                .hasMessageContaining("sink kafka(" + topic + ")")
                .hasMessageContaining("refuses transactions")
                .hasMessageContaining(broker.bootstrapServers())
                .hasMessageContaining("transaction.max.timeout.ms");
    }

    @Test
    void aTransactionTimeoutShorterThanTheCheckpointIntervalFailsTheJobAtTheBarrier(@TempDir Path dir)
            throws Exception {
        String topic = "short-transaction-timeout";
        broker.createTopic(topic, 1);
        CheckpointStore store = CheckpointStore.directory(dir);
        StreamJob job = StreamJob.named("write-" + topic);
        job.source(Sources.generator(10_000, 2_000, i -> i))
                .sink(KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                        .exactlyOnce(topic + "-tx")
                        .property("transaction.timeout.ms", 200)
                        .build());
        JobFailedException e = catchThrowableOfType(
                JobFailedException.class,
                () -> job.run(RunOptions.defaults()
                        .checkpoints(Duration.ofMillis(800), store)
                        .restartStrategy(RestartStrategy.none())));
        assertThat(e).hasMessageContaining("kafka(" + topic + ")").hasMessageContaining("transaction.timeout.ms");
        // At the barrier, or earlier when the broker's periodic clean-up aborted the transaction first.
        assertThat(e.getMessage() + causes(e)).contains("transaction.timeout.ms (200 ms)");
        assertThat(read(topic, "read_committed")).isEmpty();
    }

    private static String causes(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
            s.append(" / ").append(c.getMessage());
        }
        return s.toString();
    }
}
