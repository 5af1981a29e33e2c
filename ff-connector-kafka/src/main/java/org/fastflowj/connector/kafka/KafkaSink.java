package org.fastflowj.connector.kafka;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.fastflowj.stream.Sink;

/** The sink {@link KafkaSinks.Builder#build()} makes. */
final class KafkaSink<T, K, V> implements Sink<T> {
    private final KafkaTarget<T, K, V> target;
    private final String name;
    /** Written by the producer's I/O thread, read by the sink's writer and at commit. */
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    private final AtomicLong failures = new AtomicLong();
    /** One callback for every send: no allocation beyond the record itself. */
    private final Callback onAcknowledged = this::acknowledged;

    private KafkaProducer<K, V> producer;

    KafkaSink(KafkaTarget<T, K, V> target) {
        this.target = target;
        this.name = target.name();
    }

    @Override
    public String name() {
        return name;
    }

    /** Creates the producer and learns the topic's partitions, so a missing topic or broker fails before the run. */
    @Override
    public void open() {
        firstFailure.set(null);
        failures.set(0);
        producer = target.newProducer(null);
        try {
            target.checkTopic(producer);
        } catch (KafkaException e) {
            abort();
            throw e;
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
        try {
            producer.send(target.record(item), onAcknowledged);
        } catch (KafkaException e) {
            throw new KafkaException("sink " + name + ": cannot send to " + target.where() + ": " + e.getMessage(), e);
        }
    }

    private KafkaException failure(Exception first) {
        return new KafkaException(
                "sink " + name + ": " + failures.get() + " record(s) could not be written to " + target.where()
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
            throw new KafkaException("sink " + name + ": cannot flush to " + target.where() + ": " + e.getMessage(), e);
        }
        Exception failed = firstFailure.get();
        if (failed != null) {
            abort();
            throw failure(failed);
        }
        producer.close(target.timeout());
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
