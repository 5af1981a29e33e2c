package org.fastflowj.connector.kafka;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.Deserializer;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.SourceReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The source {@link KafkaSources.Builder#build()} makes; its readers are listed until the job ends. */
final class KafkaSource<K, V> implements Source<KafkaRecord<K, V>> {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSource.class);
    /** How long one emit may wait for records: the run checks for cancellation between emits. */
    private static final Duration POLL = Duration.ofMillis(100);

    private final String bootstrapServers;
    private final List<String> topics;
    private final Supplier<? extends Deserializer<K>> keys;
    private final Supplier<? extends Deserializer<V>> values;
    private final String groupId;
    private final StartingOffsets start;
    private final boolean bounded;
    private final Duration timeout;
    private final Map<String, Object> properties;
    private final String name;
    /**
     * The reader of each instance, each on its own thread; committed or closed at the job's end. A restart
     * after a failure opens a new reader for an instance, which replaces the failed attempt's.
     */
    private final Map<Integer, Reader> readers = new HashMap<>();

    KafkaSource(
            String bootstrapServers,
            List<String> topics,
            Supplier<? extends Deserializer<K>> keys,
            Supplier<? extends Deserializer<V>> values,
            String groupId,
            StartingOffsets start,
            boolean bounded,
            Duration timeout,
            Map<String, Object> properties) {
        this.bootstrapServers = bootstrapServers;
        this.topics = topics;
        this.keys = keys;
        this.values = values;
        this.groupId = groupId;
        this.start = start;
        this.bounded = bounded;
        this.timeout = timeout;
        this.properties = properties;
        this.name = "kafka(" + String.join(",", topics) + ")";
    }

    @Override
    public String name() {
        return name;
    }

    /** By offsets: a checkpoint keeps each partition's next offset, a restart seeks the consumer there. */
    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public SourceReader<KafkaRecord<K, V>> open(int instance, int instances) {
        Reader reader = new Reader(instance, instances);
        Reader replaced;
        synchronized (readers) {
            replaced = readers.put(instance, reader);
        }
        if (replaced != null) {
            replaced.closeConsumer();
        }
        reader.open();
        return reader;
    }

    @Override
    public void commit() {
        List<Reader> ended = takeReaders();
        KafkaException failure = null;
        for (Reader reader : ended) {
            try {
                if (groupId != null && failure == null) {
                    reader.commitEmitted();
                }
            } catch (KafkaException e) {
                failure = e;
            } finally {
                reader.closeConsumer();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void abort() {
        for (Reader reader : takeReaders()) {
            reader.closeConsumer();
        }
    }

    private List<Reader> takeReaders() {
        synchronized (readers) {
            List<Reader> taken = new ArrayList<>(readers.values());
            readers.clear();
            return taken;
        }
    }

    private String where() {
        return "topic" + (topics.size() > 1 ? "s " : " ") + String.join(", ", topics) + " on Kafka at "
                + bootstrapServers;
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.putAll(properties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        if (groupId != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        }
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Positions are always set explicitly; "none" makes an offset that fell out of retention an error
        // rather than a silent jump.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        return p;
    }

    /** The offsets after the last records emitted when checkpoint {@code checkpointId}'s barrier passed. */
    private record SavedOffsets(long checkpointId, Map<TopicPartition, OffsetAndMetadata> offsets) {}

    /** A topic the brokers do not know: its message says all there is to say. */
    private static final class MissingTopic extends KafkaException {
        private static final long serialVersionUID = 1L;

        MissingTopic(String message) {
            super(message);
        }
    }

    /** One instance's consumer, its partitions, and for each the offset after the last record emitted. */
    private final class Reader implements SourceReader<KafkaRecord<K, V>> {
        private final int instance;
        private final int instances;
        private KafkaConsumer<K, V> consumer;
        private TopicPartition[] partitions = new TopicPartition[0];
        private final Map<TopicPartition, Integer> index = new HashMap<>();
        /** The next offset to emit in each partition: where the partition started, then after the last emitted. */
        private long[] next;
        /** Bounded: the end offsets seen at open; a partition is done once its position reaches its end. */
        private long[] end;

        private boolean[] done;
        private int live;
        /** Bounded: when a record last came or a partition last reached its end. */
        private long lastProgressNanos;

        /**
         * With a group id: the offsets each checkpoint this reader saved saw, oldest first, until that
         * checkpoint completes or a newer one does. Filled on the reader's thread, taken on the checkpoint
         * thread.
         */
        private final ArrayDeque<SavedOffsets> saved = new ArrayDeque<>();
        /**
         * The offsets of the newest completed checkpoint not committed yet: the consumer is not
         * thread-safe, so the reader's own thread commits them at its next emit.
         */
        private final AtomicReference<Map<TopicPartition, OffsetAndMetadata>> completedOffsets =
                new AtomicReference<>();

        private final AtomicLong failedCommits = new AtomicLong();
        private final OffsetCommitCallback onCommitted = this::committed;

        private volatile boolean closed;

        Reader(int instance, int instances) {
            this.instance = instance;
            this.instances = instances;
        }

        void open() {
            try {
                consumer = new KafkaConsumer<>(consumerProperties(), keys.get(), values.get());
            } catch (KafkaException e) {
                throw new KafkaException(
                        "source " + name + ": cannot create a consumer for " + where() + ": " + e.getMessage(), e);
            }
            try {
                List<TopicPartition> mine = dealPartitions();
                partitions = mine.toArray(new TopicPartition[0]);
                for (int i = 0; i < partitions.length; i++) {
                    index.put(partitions[i], i);
                }
                next = new long[partitions.length];
                end = new long[partitions.length];
                done = new boolean[partitions.length];
                live = partitions.length;
                if (live == 0) {
                    return;
                }
                consumer.assign(mine);
                seekToStart(mine);
                for (int i = 0; i < partitions.length; i++) {
                    next[i] = consumer.position(partitions[i], timeout);
                }
                if (bounded) {
                    Map<TopicPartition, Long> ends = consumer.endOffsets(mine, timeout);
                    for (int i = 0; i < partitions.length; i++) {
                        end[i] = ends.get(partitions[i]);
                    }
                    markDone();
                }
                lastProgressNanos = System.nanoTime();
            } catch (TimeoutException e) {
                closeConsumer();
                throw new KafkaException(
                        "source " + name + ": no answer from " + where() + " within " + timeout.toMillis()
                                + " ms (is the broker running and reachable there?): " + e.getMessage(),
                        e);
            } catch (MissingTopic e) {
                closeConsumer();
                throw e;
            } catch (RuntimeException e) {
                closeConsumer();
                throw new KafkaException("source " + name + ": cannot open " + where() + ": " + e, e);
            }
        }

        /** All partitions of the topics in (topic, partition) order, then every {@code instances}-th from ours. */
        private List<TopicPartition> dealPartitions() {
            List<TopicPartition> all = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos;
                try {
                    infos = consumer.partitionsFor(topic, timeout);
                } catch (UnknownTopicOrPartitionException e) {
                    infos = List.of();
                }
                if (infos == null || infos.isEmpty()) {
                    throw new MissingTopic("source " + name + ": topic '" + topic + "' does not exist on Kafka at "
                            + bootstrapServers);
                }
                for (PartitionInfo info : infos) {
                    all.add(new TopicPartition(topic, info.partition()));
                }
            }
            all.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            List<TopicPartition> mine = new ArrayList<>();
            for (int j = instance; j < all.size(); j += instances) {
                mine.add(all.get(j));
            }
            return mine;
        }

        private void seekToStart(List<TopicPartition> mine) {
            switch (start) {
                case EARLIEST -> consumer.seekToBeginning(mine);
                case LATEST -> consumer.seekToEnd(mine);
                case COMMITTED -> {
                    Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(mine), timeout);
                    List<TopicPartition> fresh = new ArrayList<>();
                    for (TopicPartition tp : mine) {
                        OffsetAndMetadata at = committed.get(tp);
                        if (at == null) {
                            fresh.add(tp);
                        } else {
                            consumer.seek(tp, at.offset());
                        }
                    }
                    if (!fresh.isEmpty()) { // an empty list would mean every assigned partition
                        consumer.seekToBeginning(fresh);
                    }
                }
            }
        }

        @Override
        public boolean emit(Consumer<? super KafkaRecord<K, V>> out) {
            if (live == 0) {
                return false;
            }
            Map<TopicPartition, OffsetAndMetadata> completed = completedOffsets.getAndSet(null);
            if (completed != null) {
                // Asynchronously: the stream goes on while the broker records it; the next poll sends it.
                consumer.commitAsync(completed, onCommitted);
            }
            ConsumerRecords<K, V> records = consumer.poll(POLL);
            if (!records.isEmpty()) {
                for (TopicPartition tp : records.partitions()) {
                    int i = index.get(tp);
                    if (done[i]) {
                        continue;
                    }
                    for (ConsumerRecord<K, V> r : records.records(tp)) {
                        if (bounded && r.offset() >= end[i]) {
                            break;
                        }
                        out.accept(new KafkaRecord<>(
                                r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), r.value()));
                        next[i] = r.offset() + 1;
                    }
                }
            }
            if (bounded) {
                int before = live;
                markDone();
                long now = System.nanoTime();
                if (!records.isEmpty() || live < before) {
                    lastProgressNanos = now;
                } else if (live > 0 && now - lastProgressNanos > timeout.toNanos()) {
                    throw stalled();
                }
            }
            return live > 0;
        }

        /**
         * A bounded source whose partitions are below their end offsets gets records unless the brokers
         * are gone: fail, rather than wait for ever.
         */
        private KafkaException stalled() {
            List<String> behind = new ArrayList<>();
            for (int i = 0; i < partitions.length; i++) {
                if (!done[i]) {
                    behind.add(partitions[i] + " at " + next[i] + " of " + end[i]);
                }
            }
            return new KafkaException("source " + name + ": no record from " + where() + " for "
                    + timeout.toMillis() + " ms while partitions are below the end offsets seen at start ("
                    + String.join(", ", behind) + "); is the broker still running and reachable?");
        }

        /** Pauses each partition whose position reached its end offset: nothing of it is fetched again. */
        private void markDone() {
            List<TopicPartition> reached = null;
            for (int i = 0; i < partitions.length; i++) {
                if (!done[i] && (next[i] >= end[i] || consumer.position(partitions[i], timeout) >= end[i])) {
                    done[i] = true;
                    live--;
                    if (reached == null) {
                        reached = new ArrayList<>();
                    }
                    reached.add(partitions[i]);
                }
            }
            if (reached != null) {
                consumer.pause(reached);
            }
        }

        /** Each partition and the offset of the next record to emit from it. */
        @Override
        public void savePosition(long checkpointId, DataOutput out) throws IOException {
            savePosition(out);
            if (groupId != null && partitions.length > 0) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int i = 0; i < partitions.length; i++) {
                    offsets.put(partitions[i], new OffsetAndMetadata(next[i]));
                }
                synchronized (saved) {
                    saved.addLast(new SavedOffsets(checkpointId, offsets));
                }
            }
        }

        /**
         * Hands the checkpoint's offsets to the reader's thread, which commits them to the group: what
         * the group holds is never past a completed checkpoint, so a run started from {@link
         * StartingOffsets#COMMITTED} after a failure misses nothing the checkpoint's run did not keep.
         */
        @Override
        public void checkpointCompleted(long checkpointId) {
            Map<TopicPartition, OffsetAndMetadata> offsets = null;
            synchronized (saved) {
                while (!saved.isEmpty() && saved.peekFirst().checkpointId() <= checkpointId) {
                    SavedOffsets s = saved.pollFirst();
                    if (s.checkpointId() == checkpointId) {
                        offsets = s.offsets();
                    }
                }
            }
            if (offsets != null) {
                completedOffsets.set(offsets);
            }
        }

        /**
         * A commit that failed leaves the group's offsets behind, never ahead. One that may succeed if
         * tried again (the group's coordinator not known yet, say) goes again at the next emit unless a
         * newer checkpoint's offsets replaced it; any other is logged and the stream goes on, as the next
         * checkpoint or the job's end commits again.
         */
        private void committed(Map<TopicPartition, OffsetAndMetadata> offsets, Exception e) {
            if (e == null) {
                return;
            }
            if (e instanceof RetriableException || e instanceof RetriableCommitFailedException) {
                completedOffsets.compareAndSet(null, offsets);
                return;
            }
            if (failedCommits.getAndIncrement() % 100 == 0) {
                LOG.warn(
                        "source {}: cannot commit the offsets of a completed checkpoint to group '{}' for {} ({}"
                                + " failure(s) so far); the group's offsets stay behind until a later commit: {}",
                        name,
                        groupId,
                        where(),
                        failedCommits.get(),
                        e.toString());
            }
        }

        @Override
        public void savePosition(DataOutput out) throws IOException {
            out.writeInt(partitions.length);
            for (int i = 0; i < partitions.length; i++) {
                out.writeUTF(partitions[i].topic());
                out.writeInt(partitions[i].partition());
                out.writeLong(next[i]);
            }
        }

        /**
         * Seeks every partition to its offset in the checkpoint. The partitions are dealt as before (the
         * same topics, partitions and parallelism); a checkpoint of other partitions is refused.
         */
        @Override
        public void seek(DataInput in) throws IOException {
            int count = in.readInt();
            if (count != partitions.length) {
                throw new IOException("source " + name + ": a checkpoint of " + count + " partitions for instance "
                        + instance + ", which reads " + partitions.length);
            }
            for (int k = 0; k < count; k++) {
                TopicPartition tp = new TopicPartition(in.readUTF(), in.readInt());
                long offset = in.readLong();
                Integer i = index.get(tp);
                if (i == null) {
                    throw new IOException("source " + name + ": a checkpoint of partition " + tp + ", which instance "
                            + instance + " does not read");
                }
                next[i] = offset;
                consumer.seek(tp, offset);
            }
            if (bounded && count > 0) {
                // A partition paused at its end at open may be behind it again.
                consumer.resume(List.of(partitions));
                Arrays.fill(done, false);
                live = partitions.length;
                markDone();
                lastProgressNanos = System.nanoTime();
            }
        }

        /** On the job's thread, after the run: the reader's own thread has ended. */
        void commitEmitted() {
            if (consumer == null || closed || partitions.length == 0) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (int i = 0; i < partitions.length; i++) {
                offsets.put(partitions[i], new OffsetAndMetadata(next[i]));
            }
            try {
                consumer.commitSync(offsets, timeout);
            } catch (KafkaException e) {
                throw new KafkaException(
                        "source " + name + ": cannot commit the offsets of group '" + groupId + "' for " + where()
                                + ": " + e.getMessage(),
                        e);
            }
        }

        /**
         * Without a group id the consumer has nothing left to do at the end of its partitions; with one it
         * stays open until the job's end commits its offsets.
         */
        @Override
        public void close() {
            if (groupId == null) {
                closeConsumer();
            }
        }

        void closeConsumer() {
            if (closed || consumer == null) {
                return;
            }
            closed = true;
            try {
                consumer.close(CloseOptions.timeout(Duration.ZERO));
            } catch (ConcurrentModificationException e) {
                // its thread outlived the run's cancellation and is still in poll: make that poll return
                consumer.wakeup();
            } catch (RuntimeException e) {
                // closing after a failure: what is left to release no longer matters to the job
            }
        }
    }
}
