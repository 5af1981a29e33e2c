package org.fastflowj.connector.kafka;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.fastflowj.stream.Source;

/**
 * Sources that read Kafka topics into a {@code StreamJob}, as {@link KafkaRecord}s.
 *
 * <p>With parallelism {@code n}, the topics' partitions (sorted by topic, then partition number) are
 * dealt out: instance {@code i} reads the {@code j}-th partition when {@code j % n == i}, each instance
 * with its own {@code KafkaConsumer} that is <em>assigned</em> its partitions (no group membership, no
 * rebalancing: who reads what depends only on the partition count and {@code n}). An instance left without
 * a partition ends at once. Records of one partition reach the stream in offset order.
 *
 * <p>A bounded source ({@link Builder#bounded()}) reads each partition up to the end offset it had when
 * the instance opened, then ends, so the job ends; an unbounded one (the default) reads until the job is
 * cancelled.
 *
 * <p>Offsets, with a group id: when the job succeeds, after every sink has committed, each instance
 * commits, for each of its partitions, the offset after the last record it emitted. With checkpoints,
 * each instance also commits, once a checkpoint completes, the offsets that checkpoint saved (the offset
 * after the last record emitted before its barrier): never one past a completed checkpoint, so what the
 * group holds is where a restart from the store would read on, or behind it. The instance's own thread
 * sends that commit at its next poll, asynchronously; one that fails leaves the group's offsets behind
 * until the next. Without checkpoints the source commits nothing while it runs. A job that fails or is
 * cancelled commits nothing more, so a source that starts from {@link StartingOffsets#COMMITTED} reads
 * again everything after the last successful run or completed checkpoint: at least once, never a record
 * skipped. Run as several groups, a group commits the offsets of the instances it ran once its own part
 * succeeded, which can precede the commit of a sink in another group: there, at least once holds only
 * when the source and the sinks share a group.
 */
public final class KafkaSources {
    private KafkaSources() {}

    /** An unbounded source of {@code topic}'s records as strings, from the earliest offsets, without a group. */
    public static Source<KafkaRecord<String, String>> of(String bootstrapServers, String topic) {
        return builder(bootstrapServers, topic).build();
    }

    /** A source of {@code topics} with keys and values as UTF-8 strings; set the rest on the builder. */
    public static Builder<String, String> builder(String bootstrapServers, String... topics) {
        return new Builder<>(bootstrapServers, List.of(topics), StringDeserializer::new, StringDeserializer::new);
    }

    /** A source of {@code topics} with keys and values as the bytes Kafka holds. */
    public static Builder<byte[], byte[]> bytes(String bootstrapServers, String... topics) {
        return new Builder<>(bootstrapServers, List.of(topics), ByteArrayDeserializer::new, ByteArrayDeserializer::new);
    }

    /**
     * The settings of a Kafka source. Defaults: unbounded, {@link StartingOffsets#EARLIEST}, no group id,
     * a 30 s limit on each call to the brokers made while opening or committing.
     *
     * @param <K> the keys' type
     * @param <V> the values' type
     */
    public static final class Builder<K, V> {
        /** Set by the source itself: a property map naming one of them is refused. */
        private static final Set<String> OWN_PROPERTIES = Set.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConsumerConfig.GROUP_ID_CONFIG,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);

        private final String bootstrapServers;
        private final List<String> topics;
        private final Supplier<? extends Deserializer<K>> keys;
        private final Supplier<? extends Deserializer<V>> values;
        private String groupId;
        private StartingOffsets start = StartingOffsets.EARLIEST;
        private boolean bounded;
        private Duration timeout = Duration.ofSeconds(30);
        private final Map<String, Object> properties = new LinkedHashMap<>();

        Builder(
                String bootstrapServers,
                List<String> topics,
                Supplier<? extends Deserializer<K>> keys,
                Supplier<? extends Deserializer<V>> values) {
            if (bootstrapServers == null || bootstrapServers.isBlank()) {
                throw new IllegalArgumentException("Kafka source: bootstrap servers cannot be blank");
            }
            if (topics.isEmpty()) {
                throw new IllegalArgumentException("Kafka source on " + bootstrapServers + ": name at least one topic");
            }
            for (String topic : topics) {
                if (topic == null || topic.isBlank()) {
                    throw new IllegalArgumentException(
                            "Kafka source on " + bootstrapServers + ": a topic name cannot be blank: " + topics);
                }
            }
            if (topics.stream().distinct().count() != topics.size()) {
                throw new IllegalArgumentException(
                        "Kafka source on " + bootstrapServers + ": a topic is named twice: " + topics);
            }
            this.bootstrapServers = bootstrapServers;
            this.topics = List.copyOf(topics);
            this.keys = keys;
            this.values = values;
        }

        /**
         * Keys and values made by these deserializers; each instance of the source gets its own pair, so
         * a deserializer need not be thread-safe.
         */
        public <K2, V2> Builder<K2, V2> deserializers(
                Supplier<? extends Deserializer<K2>> keys, Supplier<? extends Deserializer<V2>> values) {
            Builder<K2, V2> b = new Builder<>(
                    bootstrapServers,
                    topics,
                    Objects.requireNonNull(keys, "keys"),
                    Objects.requireNonNull(values, "values"));
            b.groupId = groupId;
            b.start = start;
            b.bounded = bounded;
            b.timeout = timeout;
            b.properties.putAll(properties);
            return b;
        }

        /**
         * The consumer group whose offsets the source commits when the job succeeds and, with
         * checkpoints, when each checkpoint completes (none by default).
         */
        public Builder<K, V> groupId(String groupId) {
            if (groupId == null || groupId.isBlank()) {
                throw new IllegalArgumentException("Kafka source " + topics + ": a group id cannot be blank");
            }
            this.groupId = groupId;
            return this;
        }

        /** Where each partition starts; {@link StartingOffsets#COMMITTED} needs a group id. */
        public Builder<K, V> startingOffsets(StartingOffsets start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        /** Ends at the end offsets the partitions had when the source opened, so the job ends. */
        public Builder<K, V> bounded() {
            this.bounded = true;
            return this;
        }

        /**
         * How long a call to the brokers while opening (topic metadata, offsets) or committing may take
         * before the job fails naming the topic and the bootstrap servers; also how long a bounded source
         * may go without a record while its partitions are below their end offsets.
         */
        public Builder<K, V> timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException(
                        "Kafka source " + topics + ": the timeout must be positive, not " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Any other consumer property ({@code max.poll.records}, {@code security.protocol}...). The source
         * sets the bootstrap servers, the group id, the deserializers and the offsets itself, and refuses
         * those keys here.
         */
        public Builder<K, V> property(String key, Object value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (OWN_PROPERTIES.contains(key)) {
                throw new IllegalArgumentException("Kafka source " + topics + ": property '" + key
                        + "' is set by the source; use the builder's own methods");
            }
            properties.put(key, value);
            return this;
        }

        public Source<KafkaRecord<K, V>> build() {
            if (start == StartingOffsets.COMMITTED && groupId == null) {
                throw new IllegalArgumentException(
                        "Kafka source " + topics + ": starting from the committed offsets needs a group id");
            }
            return new KafkaSource<>(
                    bootstrapServers, topics, keys, values, groupId, start, bounded, timeout, Map.copyOf(properties));
        }
    }
}
