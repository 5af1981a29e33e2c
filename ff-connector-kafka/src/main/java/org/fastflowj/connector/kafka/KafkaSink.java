package org.fastflowj.connector.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Serializer;
import org.fastflowj.stream.Sink;

/** The sink {@link KafkaSinks.Builder#build()} makes. */
final class KafkaSink<T, K, V> implements Sink<T> {
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
    /** Written by the producer's I/O thread, read by the sink's writer and at commit. */
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    private final AtomicLong failures = new AtomicLong();
    /** One callback for every send: no allocation beyond the record itself. */
    private final Callback onAcknowledged = this::acknowledged;

    private KafkaProducer<K, V> producer;

    KafkaSink(
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
        this.properties = properties;
        this.name = "kafka(" + topic + ")";
    }

    @Override
    public String name() {
        return name;
    }

    private String where() {
        return "topic " + topic + " on Kafka at " + bootstrapServers;
    }

    /** Creates the producer and learns the topic's partitions, so a missing topic or broker fails before the run. */
    @Override
    public void open() {
        firstFailure.set(null);
        failures.set(0);
        long millis = timeout.toMillis();
        Properties p = new Properties();
        p.putAll(properties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(millis));
        // The producer requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
        long linger = millisOf(p, ProducerConfig.LINGER_MS_CONFIG, 5);
        long request = millisOf(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        long delivery = millisOf(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(Math.max(delivery, linger + request)));
        try {
            producer = new KafkaProducer<>(p, keySerializer.get(), valueSerializer.get());
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": cannot create a producer for " + where() + ": " + e.getMessage(), e);
        }
        List<PartitionInfo> partitions;
        try {
            partitions = producer.partitionsFor(topic);
        } catch (TimeoutException e) {
            abort();
            throw new KafkaException(
                    "sink " + name + ": " + where() + " not known within " + millis
                            + " ms (no such topic, or the broker is not running or not reachable there): "
                            + e.getMessage(),
                    e);
        } catch (KafkaException e) {
            abort();
            throw new KafkaException("sink " + name + ": cannot learn " + where() + ": " + e.getMessage(), e);
        }
        if (partitions == null || partitions.isEmpty()) {
            abort();
            throw new KafkaException(
                    "sink " + name + ": topic '" + topic + "' does not exist on Kafka at " + bootstrapServers);
        }
    }

    private long millisOf(Properties p, String key, long otherwise) {
        Object v = p.get(key);
        if (v == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "sink " + name + ": property " + key + " must be a number of ms, not '" + v + "'");
        }
    }

    private void acknowledged(RecordMetadata metadata, Exception e) {
        if (e != null) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, e);
        }
    }

    @Override
    public void write(T item) {
        Exception failed = firstFailure.get();
        if (failed != null) {
            throw failure(failed);
        }
        Long at = timestamp == null ? null : timestamp.applyAsLong(item);
        try {
            producer.send(new ProducerRecord<>(topic, null, at, key.apply(item), value.apply(item)), onAcknowledged);
        } catch (KafkaException e) {
            throw new KafkaException("sink " + name + ": cannot send to " + where() + ": " + e.getMessage(), e);
        }
    }

    private KafkaException failure(Exception first) {
        return new KafkaException(
                "sink " + name + ": " + failures.get() + " record(s) could not be written to " + where()
                        + "; the first: " + first,
                first);
    }

    /** Waits until every record sent is acknowledged or failed; fails if any failed. */
    @Override
    public void commit() {
        try {
            producer.flush();
        } catch (KafkaException e) {
            abort();
            throw new KafkaException("sink " + name + ": cannot flush to " + where() + ": " + e.getMessage(), e);
        }
        Exception failed = firstFailure.get();
        if (failed != null) {
            abort();
            throw failure(failed);
        }
        producer.close(timeout);
        producer = null;
    }

    /** Closes at once: records not sent yet are dropped, as the job failed anyway. */
    @Override
    public void abort() {
        KafkaProducer<K, V> p = producer;
        producer = null;
        if (p != null) {
            try {
                p.close(Duration.ZERO);
            } catch (RuntimeException e) {
                // the job already failed: a producer that cannot close cleanly changes nothing for it
            }
        }
    }
}
