package org.fastflowj.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.CollectSink;
import org.fastflowj.stream.JobFailedException;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sink;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.SourceReader;
import org.fastflowj.stream.Sources;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.WindowResult;
import org.fastflowj.stream.Windows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka source and sink in stream jobs, against a real broker started once for the class. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaConnectorTest {
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
    void aMillionRecordsGoThroughTheSinkAndComeBackThroughTwoReadersExactlyOnceInPartitionOrder() throws Exception {
        String topic = "round-trip";
        broker.createTopic(topic, 4);
        int count = 1_000_000;

        StreamJob produce = StreamJob.named("produce");
        produce.source(Sources.generator(count, 0, id -> id))
                .sink(KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                        .key(id -> Long.toString(id % 1000))
                        .value(id -> id, LongSerializer::new)
                        .property("linger.ms", 20)
                        .property("batch.size", 256 * 1024)
                        // a smaller buffer makes the writer wait for room rather than batches wait to expire
                        .property("buffer.memory", 8 * 1024 * 1024)
                        .build());
        produce.run();

        StreamJob consume = StreamJob.named("consume");
        PartitionOrderCheck check = new PartitionOrderCheck(count, 4);
        consume.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .deserializers(StringDeserializer::new, LongDeserializer::new)
                        .groupId("round-trip-readers")
                        .bounded()
                        .property("max.poll.records", 5000)
                        .build())
                .parallelism(2)
                .sink(check);
        consume.run();

        assertThat(check.received).isEqualTo(count);
        assertThat(check.duplicates).isZero();
        assertThat(check.outOfOrder).isZero();
        assertThat(check.ids.cardinality()).isEqualTo(count);
        assertThat(check.perPartition).doesNotContain(0L);

        // The successful bounded run committed, for every partition, the offset after its last record.
        Map<TopicPartition, OffsetAndMetadata> committed = broker.admin()
                .listConsumerGroupOffsets("round-trip-readers")
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        var ends = broker.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        for (int p = 0; p < 4; p++) {
            TopicPartition tp = new TopicPartition(topic, p);
            assertThat(committed.get(tp).offset())
                    .as("committed offset of %s", tp)
                    .isEqualTo(ends.get(tp).offset());
        }
    }

    /** Checks as the records arrive: each id once, and ids and offsets rising within each partition. */
    private static final class PartitionOrderCheck implements Sink<KafkaRecord<String, Long>> {
        final BitSet ids;
        final long[] lastId;
        final long[] lastOffset;
        final long[] perPartition;
        long received;
        long duplicates;
        long outOfOrder;

        PartitionOrderCheck(int count, int partitions) {
            ids = new BitSet(count);
            lastId = new long[partitions];
            lastOffset = new long[partitions];
            perPartition = new long[partitions];
            java.util.Arrays.fill(lastId, -1);
            java.util.Arrays.fill(lastOffset, -1);
        }

        @Override
        public String name() {
            return "check";
        }

        @Override
        public void write(KafkaRecord<String, Long> r) {
            int id = Math.toIntExact(r.value());
            received++;
            if (ids.get(id)) {
                duplicates++;
            }
            ids.set(id);
            int p = r.partition();
            if (id <= lastId[p] || r.offset() <= lastOffset[p]) {
                outOfOrder++;
            }
            lastId[p] = id;
            lastOffset[p] = r.offset();
            perPartition[p]++;
            if (!r.key().equals(Long.toString(id % 1000))) {
                throw new AssertionError("record " + id + " has key " + r.key());
            }
        }
    }

    record Click(String user, long time) {}

    @Test
    void recordTimestampsDriveEventTimeWindows() throws Exception {
        String topic = "clicks";
        broker.createTopic(topic, 2);
        long base = 1_700_000_000_000L;
        List<Click> clicks = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            clicks.add(new Click("user" + (i % 3), base + i * 37L));
        }
        String bootstrapServers = broker.bootstrapServers();

        // tag::kafka[]
        // Clicks to a topic: the user as the key (one user, one partition), the click's time as the timestamp.
        StreamJob produce = StreamJob.named("clicks-to-kafka");
        produce.source(Sources.of(clicks))
                .sink(KafkaSinks.<Click>builder(bootstrapServers, "clicks")
                        .key(Click::user)
                        .value(Click::toString)
                        .timestamp(Click::time)
                        .build());
        produce.run();

        // Read back by two instances (a partition each), up to the end the topic has now, and count
        // each user's clicks per 10 s of the records' own timestamps.
        StreamJob count = StreamJob.named("count-clicks");
        CollectSink<WindowResult<String, Long>> counts = Sinks.collect();
        count.source(KafkaSources.builder(bootstrapServers, "clicks")
                        .groupId("click-counter")
                        .startingOffsets(StartingOffsets.COMMITTED)
                        .bounded()
                        .build())
                .parallelism(2)
                .withTimestamps(KafkaRecord::timestamp, Watermarks.boundedDisorder(Duration.ofSeconds(1)))
                .keyBy(KafkaRecord::key)
                .window(Windows.tumbling(Duration.ofSeconds(10)))
                .aggregate(Aggregates.counting())
                .sink(counts);
        JobStats stats = count.run();
        // end::kafka[]

        Map<String, Long> expected = new TreeMap<>();
        for (Click c : clicks) {
            long start = c.time() - Math.floorMod(c.time(), 10_000L);
            expected.merge(start + " " + c.user(), 1L, Long::sum);
        }
        Map<String, Long> actual = new TreeMap<>();
        for (WindowResult<String, Long> r : counts.items()) {
            assertThat(r.end() - r.start()).isEqualTo(10_000);
            assertThat(actual.put(r.start() + " " + r.key(), r.value()))
                    .as("window fired twice")
                    .isNull();
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(stats.totalLateRecords()).isZero();
    }

    @Test
    void theSinksKeyFunctionGivesTheRecordKeyAndOneKeyOnePartition() {
        String topic = "keyed";
        int partitions = 4;
        try {
            broker.createTopic(topic, partitions);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        int count = 20_000;
        StreamJob produce = StreamJob.named("keyed-produce");
        produce.source(Sources.generator(count, 0, i -> i))
                .sink(KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                        .key(i -> "k" + (i % 7))
                        .value(i -> Long.toString(i))
                        .build());
        produce.run();

        CollectSink<KafkaRecord<String, String>> out = Sinks.collect();
        StreamJob consume = StreamJob.named("keyed-consume");
        consume.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .bounded()
                        .build())
                .parallelism(3)
                .sink(out);
        consume.run();

        assertThat(out.items()).hasSize(count);
        Map<String, Integer> partitionOfKey = new HashMap<>();
        for (KafkaRecord<String, String> r : out.items()) {
            long i = Long.parseLong(r.value());
            assertThat(r.key()).isEqualTo("k" + (i % 7));
            assertThat(r.topic()).isEqualTo(topic);
            Integer seen = partitionOfKey.putIfAbsent(r.key(), r.partition());
            assertThat(seen == null ? r.partition() : seen)
                    .as("partition of key %s", r.key())
                    .isEqualTo(r.partition());
        }
        assertThat(partitionOfKey).hasSize(7);
        // The producer's partitioner for a keyed record: murmur2 of the key's bytes.
        partitionOfKey.forEach((key, partition) -> assertThat(partition)
                .isEqualTo(Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions));
    }

    @Test
    void aFailedJobCommitsNoOffsetsSoTheNextRunReadsItsRecordsAgain() throws Exception {
        String topic = "at-least-once";
        broker.createTopic(topic, 2);
        StreamJob produce = StreamJob.named("first-batch");
        produce.source(Sources.generator(100, 0, i -> i)).sink(KafkaSinks.<Long>of(broker.bootstrapServers(), topic));
        produce.run();

        assertThat(readCommitted(topic, null)).hasSize(100);

        StreamJob more = StreamJob.named("second-batch");
        more.source(Sources.generator(50, 0, i -> 100 + i)).sink(KafkaSinks.<Long>of(broker.bootstrapServers(), topic));
        more.run();

        // A job whose sink fails on record 120: nothing is committed ...
        StreamJob failing = StreamJob.named("fails");
        failing.source(source(topic)).sink(Sinks.<KafkaRecord<String, String>>forEach(r -> {
            if (r.value().equals("120")) {
                throw new IllegalStateException("sink refuses " + r.value());
            }
        }));
        JobFailedException e = catchThrowableOfType(JobFailedException.class, failing::run);
        assertThat(e).hasMessageContaining("sink refuses 120");

        // ... so the next run reads the 50 records after the last successful run again, and only those.
        List<KafkaRecord<String, String>> again = readCommitted(topic, null);
        assertThat(again)
                .extracting(KafkaRecord::value)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(100, 150)
                        .mapToObj(Long::toString)
                        .toList());
        assertThat(readCommitted(topic, null)).isEmpty();
    }

    @Test
    void withCheckpointsAFailedReadRestartsFromTheCheckpointedOffsetsAndGivesEveryRecordOnce(@TempDir Path dir)
            throws Exception {
        String topic = "checkpointed";
        broker.createTopic(topic, 3);
        int count = 30_000;
        StreamJob produce = StreamJob.named("produce-checkpointed");
        produce.source(Sources.generator(count, 0, i -> i)).sink(KafkaSinks.<Long>of(broker.bootstrapServers(), topic));
        produce.run();

        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicBoolean armed = new AtomicBoolean(true);
        CollectSink<Long> out = Sinks.collect();
        StreamJob consume = StreamJob.named("consume-checkpointed");
        consume.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .bounded()
                        .property("max.poll.records", 500)
                        .build())
                .parallelism(2)
                .map(r -> {
                    if (highestId(store) >= 3 && armed.compareAndSet(true, false)) {
                        throw new IllegalStateException("injected failure at " + r);
                    }
                    return Long.parseLong(r.value());
                })
                .sink(out);
        consume.run(RunOptions.defaults()
                .checkpoints(Duration.ofMillis(5), store)
                .restartStrategy(RestartStrategy.fixedDelay(2, Duration.ofMillis(10))));

        assertThat(armed).as("the failure was injected").isFalse();
        assertThat(out.items())
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, count).boxed().toList());
    }

    private static long highestId(CheckpointStore store) {
        try {
            return store.highestId();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Source<KafkaRecord<String, String>> source(String topic) {
        return KafkaSources.builder(broker.bootstrapServers(), topic)
                .groupId(topic + "-group")
                .startingOffsets(StartingOffsets.COMMITTED)
                .bounded()
                .build();
    }

    private static List<KafkaRecord<String, String>> readCommitted(String topic, Void unused) {
        CollectSink<KafkaRecord<String, String>> out = Sinks.collect();
        StreamJob job = StreamJob.named("read-" + topic);
        job.source(source(topic)).parallelism(2).sink(out);
        job.run();
        return out.items();
    }

    @Test
    void instanceIReadsThePartitionsWhoseIndexIsIModuloTheInstancesAndASpareInstanceEndsAtOnce() throws Exception {
        String topic = "dealt";
        broker.createTopic(topic, 4);
        StreamJob produce = StreamJob.named("dealt-produce");
        produce.source(Sources.generator(400, 0, i -> i))
                .sink(KafkaSinks.<Long>builder(broker.bootstrapServers(), topic)
                        .key(i -> Long.toString(i))
                        .build());
        produce.run();

        Source<KafkaRecord<String, String>> source =
                KafkaSources.builder(broker.bootstrapServers(), topic).bounded().build();
        try {
            for (int instance = 0; instance < 2; instance++) {
                SourceReader<KafkaRecord<String, String>> reader = source.open(instance, 2);
                java.util.Set<Integer> partitions = new java.util.TreeSet<>();
                while (reader.emit(r -> partitions.add(r.partition()))) {
                    // until the end offsets seen at open
                }
                reader.close();
                assertThat(partitions).containsExactly(instance, instance + 2);
            }
            SourceReader<KafkaRecord<String, String>> spare = source.open(4, 5);
            assertThat(spare.emit(r -> {
                        throw new AssertionError("a spare instance emitted " + r);
                    }))
                    .isFalse();
        } finally {
            source.abort();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aMissingTopicFailsTheJobNamingTopicAndBroker() {
        StreamJob read = StreamJob.named("read-missing");
        read.source(KafkaSources.builder(broker.bootstrapServers(), "no-such-topic")
                        .bounded()
                        .timeout(Duration.ofSeconds(5))
                        .build())
                .sink(Sinks.collect());
        JobFailedException e = catchThrowableOfType(JobFailedException.class, read::run);
        assertThat(e)
                .hasMessageContaining("topic 'no-such-topic' does not exist")
                .hasMessageContaining(broker.bootstrapServers());

        StreamJob write = StreamJob.named("write-missing");
        write.source(Sources.of(List.of("a")))
                .sink(KafkaSinks.<String>builder(broker.bootstrapServers(), "no-such-topic")
                        .timeout(Duration.ofSeconds(3))
                        .build());
        e = catchThrowableOfType(JobFailedException.class, write::run);
        assertThat(e).hasMessageContaining("no-such-topic").hasMessageContaining(broker.bootstrapServers());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anUnreachableBrokerFailsTheJobWithinItsTimeoutNamingTheAddress() throws Exception {
        String nowhere = "127.0.0.1:" + KafkaBroker.freePorts(1)[0];
        StreamJob read = StreamJob.named("read-nowhere");
        read.source(KafkaSources.builder(nowhere, "clicks")
                        .bounded()
                        .timeout(Duration.ofSeconds(3))
                        .build())
                .sink(Sinks.collect());
        JobFailedException e = catchThrowableOfType(JobFailedException.class, read::run);
        assertThat(e)
                .hasMessageContaining(nowhere)
                .hasMessageContaining("clicks")
                .hasMessageContaining("no answer");

        StreamJob write = StreamJob.named("write-nowhere");
        write.source(Sources.of(List.of("a")))
                .sink(KafkaSinks.<String>builder(nowhere, "clicks")
                        .timeout(Duration.ofSeconds(3))
                        .build());
        e = catchThrowableOfType(JobFailedException.class, write::run);
        assertThat(e).hasMessageContaining(nowhere).hasMessageContaining("clicks");
    }

    @Test
    void aRecordTheProducerRefusesFailsTheJobNamingTopicAndCause() throws Exception {
        String topic = "small-records";
        broker.createTopic(topic, 1);
        String big = "x".repeat(10_000);
        // Refused in the middle: the next write fails the job. Refused last: the job's end (flush) does.
        for (long refused : new long[] {500, 999}) {
            StreamJob produce = StreamJob.named("too-large-" + refused);
            produce.source(Sources.generator(1_000, 0, i -> i == refused ? big : Long.toString(i)))
                    .sink(KafkaSinks.<String>builder(broker.bootstrapServers(), topic)
                            .property("max.request.size", 4096)
                            .build());
            JobFailedException e = catchThrowableOfType(JobFailedException.class, produce::run);

            assertThat(e)
                    .as("record %d refused", refused)
                    .hasMessageContaining("1 record(s) could not be written to topic " + topic)
                    .hasMessageContaining(broker.bootstrapServers())
                    .hasMessageContaining("RecordTooLargeException");
        }
    }

    /** Last: it stops the class's broker. */
    @Test
    @Order(Integer.MAX_VALUE)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBoundedSourceWhoseBrokerStopsMidwayFailsWithinItsTimeout() throws Exception {
        String topic = "broker-stops";
        broker.createTopic(topic, 1);
        StreamJob produce = StreamJob.named("before-the-stop");
        produce.source(Sources.generator(5_000, 0, i -> i)).sink(KafkaSinks.<Long>of(broker.bootstrapServers(), topic));
        produce.run();

        StreamJob read = StreamJob.named("read-through-the-stop");
        read.source(KafkaSources.builder(broker.bootstrapServers(), topic)
                        .bounded()
                        .timeout(Duration.ofSeconds(3))
                        // small fetches: most records are still on the broker when it stops
                        .property("max.partition.fetch.bytes", 512)
                        .property("fetch.max.bytes", 512)
                        .build())
                .sink(Sinks.<KafkaRecord<String, String>>forEach(r -> {
                    if (r.offset() == 0) {
                        broker.close();
                    }
                }));
        JobFailedException e = catchThrowableOfType(JobFailedException.class, read::run);

        assertThat(e)
                .hasMessageContaining("no record from topic " + topic)
                .hasMessageContaining(broker.bootstrapServers())
                .hasMessageContaining("below the end offsets");
    }
}
