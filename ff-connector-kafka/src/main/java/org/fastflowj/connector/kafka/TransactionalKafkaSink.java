package org.fastflowj.connector.kafka;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.fastflowj.stream.Sink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink {@link KafkaSinks.Builder#exactlyOnce} makes: one Kafka transaction per checkpoint interval,
 * prepared (flushed) at the checkpoint's barrier and committed when the checkpoint completes.
 *
 * <p>Two transactional producers, {@code <prefix>-0} and {@code <prefix>-1}, take turns: the records
 * after a barrier go to the producer whose transaction is not waiting for its checkpoint to complete.
 * Two are enough because the run asks for a checkpoint only after the previous one completed and its
 * notices ran, so at most one prepared transaction waits at any time.
 *
 * <p>The state names each prepared transaction with its producer id and epoch. A restore commits it
 * with the producer that opened it, after a restart in the same process; in a new process (the old one
 * died between the checkpoint's completion and the commit) with a new producer of the same
 * transactional id made its owner ({@link PreparedTransaction#resumeIn}). So a new process fences the
 * transactional ids ({@code initTransactions}, which aborts what they left open) only after its restore,
 * or before its first record when it resumes from nothing; and a failed run leaves its prepared
 * transactions open (their checkpoint may have completed), for a resumed run to commit, or for the
 * broker to abort after {@code transaction.timeout.ms}.
 */
final class TransactionalKafkaSink<T, K, V> implements Sink<T> {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);
    /** Producers taking turns; see the class comment for why two suffice. */
    private static final int PRODUCERS = 2;

    /** 2: each prepared transaction's producer id and epoch; 1 (read too): its slot and checkpoint only. */
    private static final int STATE_VERSION = 2;

    private static final int STATE_VERSION_WITHOUT_PRODUCER_IDS = 1;
    /** Kafka's default when {@code transaction.timeout.ms} is not set. */
    private static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000;

    private final KafkaTarget<T, K, V> target;
    private final String prefix;
    private final String name;
    private long transactionTimeoutMs;

    /** Written by the producers' I/O threads, read by the sink's writer and at each barrier. */
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    private final AtomicLong failures = new AtomicLong();
    private final Callback onAcknowledged = this::acknowledged;

    /** Guarded by {@code this}: the sink's thread, the checkpoint thread and the job's thread share them. */
    private final List<Producer> producers = new ArrayList<>(PRODUCERS);
    /**
     * The producer whose transaction takes the records since the last barrier; null until the first
     * record after it. Only the sink's thread writes it, so {@link #write} reads it without the lock.
     */
    private Producer current;

    private boolean warnedOfTimeout;

    /** One transactional id and its producer. */
    private final class Producer {
        final int slot;
        final String transactionalId;
        KafkaProducer<K, V> kafka;
        /** {@code initTransactions} ran on {@link #kafka}: its id is fenced, and it may begin transactions. */
        boolean started;
        /** The transaction is begun (records may be in it). */
        boolean open;
        /** The prepared transaction as the broker knows it, once prepared; else null. */
        PreparedTransaction prepared;
        /** When the transaction began: the broker aborts one older than {@code transaction.timeout.ms}. */
        long beganNanos;
        /** The checkpoint whose barrier prepared the open transaction; -1: not prepared. */
        long preparedFor = -1;

        Producer(int slot) {
            this.slot = slot;
            this.transactionalId = prefix + "-" + slot;
        }
    }

    TransactionalKafkaSink(KafkaTarget<T, K, V> target, String prefix) {
        this.target = target;
        this.prefix = prefix;
        this.name = target.name();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean exactlyOnce() {
        return true;
    }

    private String where() {
        return target.where();
    }

    /**
     * Creates both producers, not yet fencing their transactional ids (a restore may first commit what
     * they prepared); fails before the run if the topic is missing or the brokers refuse transactions,
     * which a producer of a transactional id of its own ({@code <prefix>-probe}) tries.
     */
    @Override
    public synchronized void open() {
        firstFailure.set(null);
        failures.set(0);
        warnedOfTimeout = false;
        current = null;
        transactionTimeoutMs =
                target.millisOf(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, DEFAULT_TRANSACTION_TIMEOUT_MS);
        try {
            producers.clear();
            for (int slot = 0; slot < PRODUCERS; slot++) {
                Producer p = new Producer(slot);
                p.kafka = target.newProducer(p.transactionalId);
                producers.add(p);
            }
            target.checkTopic(producers.get(0).kafka);
            KafkaProducer<K, V> probe = target.newProducer(prefix + "-probe");
            try {
                initTransactions(probe, prefix + "-probe");
            } finally {
                probe.close(Duration.ZERO);
            }
        } catch (RuntimeException e) {
            closeAll(Duration.ZERO);
            throw e;
        }
    }

    /** Fences every transactional id not fenced yet, aborting what earlier producers left open. */
    private void startAll() {
        for (Producer p : producers) {
            if (!p.started) {
                start(p);
            }
        }
    }

    /** A producer for {@code p}'s transactional id, which fences any earlier one and aborts its transaction. */
    private void start(Producer p) {
        p.open = false;
        p.preparedFor = -1;
        p.prepared = null;
        if (p.kafka == null) {
            p.kafka = target.newProducer(p.transactionalId);
        }
        initTransactions(p.kafka, p.transactionalId);
        p.started = true;
    }

    private void initTransactions(KafkaProducer<K, V> kafka, String transactionalId) {
        try {
            kafka.initTransactions();
        } catch (TimeoutException e) {
            throw new KafkaException(
                    "sink " + name + ": " + where() + " started no transaction for transactional id '"
                            + transactionalId + "' within " + target.timeout().toMillis()
                            + " ms: is the broker reachable, and can it host its transaction log"
                            + " (transaction.state.log.replication.factor and min.isr no more than its brokers)? "
                            + e.getMessage(),
                    e);
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": " + where() + " refuses transactions for transactional id '"
                            + transactionalId + "' (transaction.timeout.ms " + transactionTimeoutMs
                            + " must not exceed the broker's transaction.max.timeout.ms; the principal needs"
                            + " WRITE on the transactional id): " + e,
                    e);
        }
    }

    private void acknowledged(RecordMetadata metadata, Exception e) {
        if (e != null) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, e);
        }
    }

    private KafkaException failure(Exception first) {
        String why = first instanceof InvalidProducerEpochException || first instanceof ProducerFencedException
                ? " (the broker aborted the transaction: it outlived transaction.timeout.ms (" + transactionTimeoutMs
                        + " ms), or another producer took its transactional id)"
                : "";
        return new KafkaException(
                "sink " + name + ": " + failures.get() + " record(s) could not be written to " + where() + why
                        + "; the first: " + first,
                first);
    }

    @Override
    public void write(T item) {
        Exception failed = firstFailure.get();
        if (failed != null) {
            throw failure(failed);
        }
        Producer p = current;
        if (p == null) {
            p = begin();
        }
        try {
            p.kafka.send(target.record(item), onAcknowledged);
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": cannot send to " + where() + " in the transaction of '" + p.transactionalId
                            + "': " + e.getMessage(),
                    e);
        }
    }

    /** Begins a transaction on the producer that has none waiting for its checkpoint. */
    private synchronized Producer begin() {
        startAll();
        Producer free = null;
        for (Producer p : producers) {
            if (p.preparedFor < 0 && !p.open) {
                free = p;
                break;
            }
        }
        if (free == null) {
            throw new IllegalStateException("sink " + name + ": both transactions of " + where()
                    + " wait for their checkpoints to complete; a third checkpoint's records have nowhere to go");
        }
        try {
            free.kafka.beginTransaction();
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": cannot begin a transaction of '" + free.transactionalId + "' on " + where()
                            + ": " + e.getMessage(),
                    e);
        }
        free.open = true;
        free.beganNanos = System.nanoTime();
        current = free;
        return free;
    }

    /**
     * Flushes the records since the last barrier and files their transaction under {@code checkpointId},
     * to be committed when that checkpoint completes. The state names every transaction still waiting for
     * its checkpoint, so a restore from this checkpoint commits them.
     */
    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        Producer p = current;
        if (p != null) {
            prepare(p, checkpointId);
        }
        synchronized (this) {
            current = null;
            List<Producer> waiting = waiting(Long.MAX_VALUE);
            out.writeInt(STATE_VERSION);
            out.writeUTF(prefix);
            out.writeInt(waiting.size());
            for (Producer w : waiting) {
                out.writeInt(w.slot);
                out.writeLong(w.preparedFor);
                out.writeLong(w.prepared.producerId());
                out.writeShort(w.prepared.epoch());
                out.writeBoolean(w.prepared.transactionsV2());
            }
        }
    }

    private void prepare(Producer p, long checkpointId) throws IOException {
        long ageMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.beganNanos);
        if (ageMs >= transactionTimeoutMs) {
            // The broker aborts a transaction older than its timeout: committing it later would fail, or,
            // had the abort not come yet, race with it.
            throw new IOException("sink " + name + ": the transaction of checkpoint " + checkpointId + " on "
                    + where() + " has been open " + ageMs + " ms, longer than transaction.timeout.ms ("
                    + transactionTimeoutMs + " ms), so the broker aborts it: set transaction.timeout.ms (property)"
                    + " well above the checkpoint interval plus the time a checkpoint takes");
        }
        if (ageMs * 2 >= transactionTimeoutMs && !warnedOfTimeout) {
            warnedOfTimeout = true;
            LOG.warn(
                    "sink {}: the transaction of checkpoint {} on {} was open {} ms, more than half of"
                            + " transaction.timeout.ms ({} ms): a slower checkpoint will fail the job; raise"
                            + " transaction.timeout.ms or checkpoint more often",
                    name,
                    checkpointId,
                    where(),
                    ageMs,
                    transactionTimeoutMs);
        }
        try {
            p.kafka.flush();
        } catch (KafkaException e) {
            throw new IOException(
                    "sink " + name + ": cannot flush the transaction of checkpoint " + checkpointId + " to " + where()
                            + ": " + e.getMessage(),
                    e);
        }
        Exception failed = firstFailure.get();
        if (failed != null) {
            throw new IOException(failure(failed).getMessage(), failed);
        }
        PreparedTransaction prepared = PreparedTransaction.of(p.kafka);
        synchronized (this) {
            p.preparedFor = checkpointId;
            p.prepared = prepared;
        }
    }

    /** The prepared transactions filed under a checkpoint up to {@code upTo}, oldest first. */
    private List<Producer> waiting(long upTo) {
        List<Producer> w = new ArrayList<>();
        for (Producer p : producers) {
            if (p.open && p.preparedFor >= 0 && p.preparedFor <= upTo) {
                w.add(p);
            }
        }
        w.sort(Comparator.comparingLong(p -> p.preparedFor));
        return w;
    }

    /** Commits the transactions filed under {@code checkpointId} or before: their records become visible. */
    @Override
    public synchronized void checkpointCompleted(long checkpointId) {
        for (Producer p : waiting(checkpointId)) {
            commit(p, "checkpoint " + p.preparedFor);
        }
    }

    private void commit(Producer p, String what) {
        try {
            p.kafka.commitTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            throw new KafkaException(
                    "sink " + name + ": the transaction of " + what + " on " + where() + " ('" + p.transactionalId
                            + "') was aborted before its commit: another producer took transactional id '"
                            + p.transactionalId + "' (the prefix must be this sink's own), or it outlived"
                            + " transaction.timeout.ms (" + transactionTimeoutMs + " ms): " + e,
                    e);
        } catch (KafkaException e) {
            throw new KafkaException(
                    "sink " + name + ": cannot commit the transaction of " + what + " on " + where() + " ('"
                            + p.transactionalId + "'): " + e,
                    e);
        }
        p.open = false;
        p.preparedFor = -1;
        p.prepared = null;
    }

    /**
     * Back to a completed checkpoint: commits the transactions its state names (the run failed before the
     * checkpoint's notice), with the producer that prepared them if this process holds it, else with a new
     * one made their owner; then aborts every other transaction (records after the checkpoint, which the
     * sources replay).
     */
    @Override
    public synchronized void restore(DataInput in) throws IOException {
        int version = in.readInt();
        if (version != STATE_VERSION && version != STATE_VERSION_WITHOUT_PRODUCER_IDS) {
            throw new IOException("sink " + name + ": a checkpoint of state version " + version + ", not "
                    + STATE_VERSION + " (another version of the connector wrote it)");
        }
        String savedPrefix = in.readUTF();
        if (!savedPrefix.equals(prefix)) {
            throw new IOException("sink " + name + ": the checkpoint was written with transactional id prefix '"
                    + savedPrefix + "', this sink has '" + prefix + "': resuming would leave that prefix's"
                    + " transactions to time out rather than fence them");
        }
        int count = in.readInt();
        long[] named = new long[PRODUCERS];
        PreparedTransaction[] prepared = new PreparedTransaction[PRODUCERS];
        Arrays.fill(named, -1);
        for (int k = 0; k < count; k++) {
            int slot = in.readInt();
            long checkpointId = in.readLong();
            if (slot < 0 || slot >= PRODUCERS) {
                throw new IOException("sink " + name + ": the checkpoint names producer " + slot + " of " + PRODUCERS);
            }
            named[slot] = checkpointId;
            if (version == STATE_VERSION) {
                prepared[slot] = new PreparedTransaction(in.readLong(), in.readShort(), in.readBoolean());
            }
        }
        current = null;
        firstFailure.set(null);
        failures.set(0);
        for (Producer p : producers) {
            if (!p.started) {
                if (named[p.slot] >= 0) {
                    commitElsewherePrepared(p, named[p.slot], prepared[p.slot]);
                }
                continue;
            }
            if (!p.open) {
                continue;
            }
            if (p.preparedFor >= 0 && p.preparedFor == named[p.slot]) {
                commit(p, "checkpoint " + p.preparedFor);
            } else {
                abortOrRestart(p);
            }
        }
        startAll();
    }

    /**
     * Commits the transaction another process prepared for checkpoint {@code checkpointId} under {@code
     * p}'s transactional id, before anything fences that id. A transaction already completed (committed by
     * an earlier restore from this checkpoint, or aborted by the broker past {@code transaction.timeout.ms})
     * is logged, not retried.
     */
    private void commitElsewherePrepared(Producer p, long checkpointId, PreparedTransaction transaction)
            throws IOException {
        if (transaction == null) {
            LOG.warn(
                    "sink {}: checkpoint {} names a transaction of '{}' without its producer id (an older version"
                            + " of the connector wrote it): it cannot be committed from this process",
                    name,
                    checkpointId,
                    p.transactionalId);
            return;
        }
        KafkaProducer<K, V> owner = p.kafka;
        p.kafka = null;
        try {
            transaction.resumeIn(owner);
            owner.commitTransaction();
            LOG.info(
                    "sink {}: committed the transaction of checkpoint {} on {} ('{}'), prepared by a process"
                            + " before this one",
                    name,
                    checkpointId,
                    where(),
                    p.transactionalId);
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            LOG.warn(
                    "sink {}: the transaction of checkpoint {} on {} ('{}') was completed before this restore"
                            + " (committed by an earlier one, or aborted past transaction.timeout.ms): {}",
                    name,
                    checkpointId,
                    where(),
                    p.transactionalId,
                    e.toString());
        } catch (KafkaException e) {
            throw new IOException(
                    "sink " + name + ": cannot commit the transaction of checkpoint " + checkpointId + " on " + where()
                            + " ('" + p.transactionalId + "', producer id " + transaction.producerId() + ", epoch "
                            + transaction.epoch() + "), prepared by an earlier process: " + e,
                    e);
        } finally {
            try {
                owner.close(Duration.ZERO);
            } catch (RuntimeException e) {
                // the commit's outcome is known; nothing else depends on this producer
            }
        }
    }

    /** Aborts {@code p}'s transaction; a producer that cannot (in error) is replaced, which aborts it too. */
    private void abortOrRestart(Producer p) {
        try {
            p.kafka.abortTransaction();
            p.open = false;
            p.preparedFor = -1;
        } catch (KafkaException e) {
            closeQuietly(p, Duration.ZERO);
            start(p);
        }
    }

    /**
     * After a successful run: commits what waits for a checkpoint (the run ended before its notice) and
     * the records since the last barrier.
     */
    @Override
    public synchronized void commit() {
        try {
            startAll(); // a run that wrote nothing still aborts what an earlier one left open
            Producer last = current;
            if (last != null && last.preparedFor < 0) {
                try {
                    last.kafka.flush();
                } catch (KafkaException e) {
                    throw new KafkaException(
                            "sink " + name + ": cannot flush to " + where() + ": " + e.getMessage(), e);
                }
            }
            Exception failed = firstFailure.get();
            if (failed != null) {
                throw failure(failed);
            }
            for (Producer p : waiting(Long.MAX_VALUE)) {
                commit(p, "checkpoint " + p.preparedFor);
            }
            if (last != null && last.open) {
                commit(last, "the run's last records");
            }
            current = null;
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
        closeAll(target.timeout());
    }

    /**
     * Aborts every transaction not prepared, so that no open one holds back {@code read_committed}
     * readers until it times out, and closes the producers. A prepared one is left open: its checkpoint may
     * have completed, and a run resumed from it commits it.
     */
    @Override
    public synchronized void abort() {
        current = null;
        for (Producer p : producers) {
            if (p.kafka != null && p.open && p.preparedFor < 0) {
                try {
                    p.kafka.abortTransaction();
                } catch (RuntimeException e) {
                    // the broker aborts it at transaction.timeout.ms, or a new run's initTransactions does
                }
                p.open = false;
                p.preparedFor = -1;
            }
        }
        closeAll(Duration.ZERO);
    }

    private void closeAll(Duration wait) {
        for (Producer p : producers) {
            closeQuietly(p, wait);
        }
    }

    private void closeQuietly(Producer p, Duration wait) {
        KafkaProducer<K, V> k = p.kafka;
        p.kafka = null;
        p.started = false;
        if (k != null) {
            try {
                k.close(wait);
            } catch (RuntimeException e) {
                // nothing the job can still do with it
            }
        }
    }
}
