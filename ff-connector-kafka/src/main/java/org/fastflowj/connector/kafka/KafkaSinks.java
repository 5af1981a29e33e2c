package org.fastflowj.connector.kafka;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.fastflowj.stream.Sink;

/**
 * Sinks that write a stream to a Kafka topic through a {@code KafkaProducer} with {@code acks=all} and
 * idempotence on: a record the broker accepted is on every in-sync replica, and the producer's retries
 * never write one twice.
 *
 * <p>A send that fails fails the job: the next {@code write} throws if an earlier send already failed,
 * and when the job ends the sink flushes every record still in flight and throws if any of them could not
 * be written, naming the topic, the bootstrap servers and the count; a record is never lost silently.
 * When the job fails, the sink closes its producer at once, dropping what was not sent yet. What was sent
 * before stays in the topic (there is no transaction), so a job run again after a failure, or restarted
 * from a checkpoint, writes those records again: at least once.
 *
 * <p>{@link Builder#exactlyOnce} makes a sink that writes in Kafka transactions instead, one per
 * checkpoint interval, committed when the checkpoint completes: with checkpoints, a reader with {@code
 * isolation.level=read_committed} sees every record exactly once across restarts (a {@code
 * read_uncommitted} reader also sees the aborted records of the failed attempts).
 */
public final class KafkaSinks {
    private KafkaSinks() {}

    /** Writes every record's {@code toString()} as a string value without a key. */
    public static <T> Sink<T> of(String bootstrapServers, String topic) {
        return KafkaSinks.<T>builder(bootstrapServers, topic).build();
    }

    /**
     * A sink to {@code topic}; by default a record has no key, its value is the item's {@code toString()}
     * as UTF-8, and its timestamp is the producer's clock.
     */
    public static <T> Builder<T, String, String> builder(String bootstrapServers, String topic) {
        return new Builder<>(
                bootstrapServers,
                topic,
                item -> null,
                StringSerializer::new,
                item -> String.valueOf(item),
                StringSerializer::new);
    }

    /**
     * The settings of a Kafka sink. A record's partition is the producer's choice for its key: records
     * with the same key go to the same partition, in the order they were written.
     *
     * @param <T> the stream's records
     * @param <K> the Kafka keys' type
     * @param <V> the Kafka values' type
     */
    public static final class Builder<T, K, V> {
        /** Set by the sink itself: a property map naming one of them is refused. */
        private static final Set<String> OWN_PROPERTIES = Set.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ProducerConfig.ACKS_CONFIG,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG);

        private final String bootstrapServers;
        private final String topic;
        private final Function<? super T, ? extends K> key;
        private final Supplier<? extends Serializer<K>> keySerializer;
        private final Function<? super T, ? extends V> value;
        private final Supplier<? extends Serializer<V>> valueSerializer;
        private ToLongFunction<? super T> timestamp;
        private Duration timeout = Duration.ofSeconds(60);
        private final Map<String, Object> properties = new LinkedHashMap<>();
        private String transactionalIdPrefix;

        Builder(
                String bootstrapServers,
                String topic,
                Function<? super T, ? extends K> key,
                Supplier<? extends Serializer<K>> keySerializer,
                Function<? super T, ? extends V> value,
                Supplier<? extends Serializer<V>> valueSerializer) {
            if (bootstrapServers == null || bootstrapServers.isBlank()) {
                throw new IllegalArgumentException("Kafka sink: bootstrap servers cannot be blank");
            }
            if (topic == null || topic.isBlank()) {
                throw new IllegalArgumentException("Kafka sink on " + bootstrapServers + ": the topic cannot be blank");
            }
            this.bootstrapServers = bootstrapServers;
            this.topic = topic;
            this.key = Objects.requireNonNull(key, "key");
            this.keySerializer = Objects.requireNonNull(keySerializer, "keySerializer");
            this.value = Objects.requireNonNull(value, "value");
            this.valueSerializer = Objects.requireNonNull(valueSerializer, "valueSerializer");
        }

        private <K2, V2> Builder<T, K2, V2> with(
                Function<? super T, ? extends K2> key,
                Supplier<? extends Serializer<K2>> keySerializer,
                Function<? super T, ? extends V2> value,
                Supplier<? extends Serializer<V2>> valueSerializer) {
            Builder<T, K2, V2> b = new Builder<>(bootstrapServers, topic, key, keySerializer, value, valueSerializer);
            b.timestamp = timestamp;
            b.timeout = timeout;
            b.properties.putAll(properties);
            b.transactionalIdPrefix = transactionalIdPrefix;
            return b;
        }

        /** Each record's key, as a UTF-8 string ({@code null}: no key). */
        public Builder<T, String, V> key(Function<? super T, String> key) {
            return with(key, StringSerializer::new, value, valueSerializer);
        }

        /** Each record's key, written by {@code serializer}. */
        public <K2> Builder<T, K2, V> key(
                Function<? super T, ? extends K2> key, Supplier<? extends Serializer<K2>> serializer) {
            return with(key, serializer, value, valueSerializer);
        }

        /** Each record's value, as a UTF-8 string. */
        public Builder<T, K, String> value(Function<? super T, String> value) {
            return with(key, keySerializer, value, StringSerializer::new);
        }

        /** Each record's value, written by {@code serializer}. */
        public <V2> Builder<T, K, V2> value(
                Function<? super T, ? extends V2> value, Supplier<? extends Serializer<V2>> serializer) {
            return with(key, keySerializer, value, serializer);
        }

        /** Each record's Kafka timestamp, in milliseconds since the epoch (by default the producer's clock). */
        public Builder<T, K, V> timestamp(ToLongFunction<? super T> timestamp) {
            this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
            return this;
        }

        /**
         * How long the sink may wait for the brokers when it opens (to learn the topic) and for room in
         * the producer's buffer (60 s by default); past it the job fails. How long a record may take to be
         * acknowledged is Kafka's {@code delivery.timeout.ms} (2 minutes unless set with {@link #property}).
         */
        public Builder<T, K, V> timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException(
                        "Kafka sink " + topic + ": the timeout must be positive, not " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Writes in Kafka transactions, so that with checkpoints the topic holds, as {@code
         * read_committed} readers see it, every record exactly once across restarts. The records after a
         * checkpoint's barrier go into a transaction that the next barrier flushes and that is committed
         * when that checkpoint completes; a restart aborts what came after the checkpoint it restores
         * (the sources replay it) and, in the same process, commits the checkpoint's own transaction if
         * the failure came before its commit. Without checkpoints the whole run is one transaction,
         * committed when the job succeeds.
         *
         * <p><b>Readers must set {@code isolation.level=read_committed}</b>: a {@code read_uncommitted}
         * reader (Kafka's default) also sees the records of aborted transactions. Records become visible
         * once per checkpoint, so the checkpoint interval is also the output's latency.
         *
         * <p>The sink uses transactional ids {@code <prefix>-0} and {@code <prefix>-1}. Give each sink its
         * own prefix, and the same one on every run of the job: a run fences those ids when it opens,
         * aborting what an earlier run left open, and a sink sharing a prefix with another fences it.
         *
         * <p>{@code transaction.timeout.ms} (Kafka's default 60 s; set it with {@link #property}, at most
         * the broker's {@code transaction.max.timeout.ms}) must exceed the checkpoint interval plus the
         * time a checkpoint takes: the broker aborts an older transaction. The sink cannot see the interval
         * before the run, so it checks at each barrier: a transaction older than the timeout fails the job
         * there, naming the sink, the topic and both durations, and one older than half of it logs a
         * warning.
         *
         * <p>Exactly once holds across restarts in one process and across a new process resumed from the
         * store ({@code resumeFromCheckpoint(true)}), except in one window: a process that dies after a
         * checkpoint completed in the store and before its transaction's commit reached the broker loses
         * that transaction's records, since kafka-clients has no public way to commit it from another
         * producer, and the new process's fencing aborts it. A run that fails (rather than dies) has
         * committed every completed checkpoint's transaction before it gives up; a sink that ended while
         * other parts of the job ran on commits its last one when the first checkpoint after its end
         * completes, which saves the state it ended with.
         *
         * @param transactionalIdPrefix the start of the sink's transactional ids, unique to this sink
         */
        public Builder<T, K, V> exactlyOnce(String transactionalIdPrefix) {
            if (transactionalIdPrefix == null || transactionalIdPrefix.isBlank()) {
                throw new IllegalArgumentException("Kafka sink kafka(" + topic + ") on " + bootstrapServers
                        + ": exactly once needs a transactional id prefix, unique to this sink and the same on"
                        + " every run");
            }
            this.transactionalIdPrefix = transactionalIdPrefix;
            return this;
        }

        /**
         * Any other producer property ({@code linger.ms}, {@code compression.type}, {@code
         * delivery.timeout.ms}, {@code transaction.timeout.ms}...). The sink sets the bootstrap servers,
         * the serializers, {@code acks}, idempotence, {@code max.block.ms} and the transactional id
         * ({@link #exactlyOnce}) itself, and refuses those keys here.
         */
        public Builder<T, K, V> property(String key, Object value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (OWN_PROPERTIES.contains(key)) {
                throw new IllegalArgumentException("Kafka sink " + topic + ": property '" + key
                        + "' is set by the sink; use the builder's own methods");
            }
            properties.put(key, value);
            return this;
        }

        public Sink<T> build() {
            KafkaTarget<T, K, V> target = new KafkaTarget<>(
                    bootstrapServers,
                    topic,
                    key,
                    keySerializer,
                    value,
                    valueSerializer,
                    timestamp,
                    timeout,
                    properties);
            return transactionalIdPrefix == null
                    ? new KafkaSink<>(target)
                    : new TransactionalKafkaSink<>(target, transactionalIdPrefix);
        }
    }
}
