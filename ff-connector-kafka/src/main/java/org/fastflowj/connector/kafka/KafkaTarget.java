package org.fastflowj.connector.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Where and how a Kafka sink writes, as {@link KafkaSinks.Builder} set it: the brokers, the topic, how an
 * item becomes a record, the producer's properties. Shared by the at-least-once and the transactional
 * sink, which differ only in how they hand records to their producers.
 *
 * <p>Threading: immutable.
 */
final class KafkaTarget<T, K, V> {
    private final String bootstrapServers;
    private final String topic;
    private final Function<? super T, ? extends K> key;
    private final Supplier<? extends Serializer<K>> keySerializer;
    private final Function<? super T, ? extends V> value;
    private final Supplier<? extends Serializer<V>> valueSerializer;
    private final ToLongFunction<? super T> timestamp;
    private final Duration timeout;
    private final Map<String, Object> properties;
    private final String name;

    KafkaTarget(
            String bootstrapServers,
            String topic,
            Function<? super T, ? extends K> key,
            Supplier<? extends Serializer<K>> keySerializer,
            Function<? super T, ? extends V> value,
            Supplier<? extends Serializer<V>> valueSerializer,
            ToLongFunction<? super T> timestamp,
            Duration timeout,
            Map<String, Object> properties) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.key = key;
        this.keySerializer = keySerializer;
        this.value = value;
        this.valueSerializer = valueSerializer;
        this.timestamp = timestamp;
        this.timeout = timeout;
        this.properties = Map.copyOf(properties);
        this.name = "kafka(" + topic + ")";
    }

    /** The sink's name, for messages. */
    String name() {
        return name;
    }

    /** The topic and the brokers, for messages. */
    String where() {
        return "topic " + topic + " on Kafka at " + bootstrapServers;
    }

    /** How long the producer may block, and how long a close waits. */
    Duration timeout() {
        return timeout;
    }

    /** {@code item} as a record of the topic. */
    ProducerRecord<K, V> record(T item) {
        Long at = timestamp == null ? null : timestamp.applyAsLong(item);
        return new ProducerRecord<>(topic, null, at, key.apply(item), value.apply(item));
    }

    /**
     * A producer of the user's properties and the sink's own (brokers, acks=all, idempotence, the block
     * time, and {@code transactionalId} unless null).
     */
    KafkaProducer<K, V> newProducer(String transactionalId) {
        Properties p = new Properties();
        p.putAll(properties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
        // The producer requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
        long linger = millisOf(ProducerConfig.LINGER_MS_CONFIG, 5);
        long request = millisOf(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        long delivery = millisOf(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(Math.max(delivery, linger + request)));
        try {
            return new KafkaProducer<>(p, keySerializer.get(), valueSerializer.get());
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": cannot create a "
                            + (transactionalId == null ? "" : "transactional ") + "producer for " + where() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Learns the topic's partitions through {@code producer}: a missing topic or broker fails before the run. */
    void checkTopic(KafkaProducer<K, V> producer) {
        List<PartitionInfo> partitions;
        try {
            partitions = producer.partitionsFor(topic);
        } catch (TimeoutException e) {
            throw new KafkaException(
                    "sink " + name + ": " + where() + " not known within " + timeout.toMillis()
                            + " ms (no such topic, or the broker is not running or not reachable there): "
                            + e.getMessage(),
                    e);
        } catch (KafkaException e) {
            throw new KafkaException("sink " + name + ": cannot learn " + where() + ": " + e.getMessage(), e);
        }
        if (partitions == null || partitions.isEmpty()) {
            throw new KafkaException(
                    "sink " + name + ": topic '" + topic + "' does not exist on Kafka at " + bootstrapServers);
        }
    }

    /** A property in milliseconds, or {@code otherwise} if it is not set. */
    long millisOf(String property, long otherwise) {
        Object v = properties.get(property);
        if (v == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "sink " + name + ": property " + property + " must be a number of ms, not '" + v + "'");
        }
    }
}
