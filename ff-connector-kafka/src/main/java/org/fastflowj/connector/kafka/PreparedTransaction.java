package org.fastflowj.connector.kafka;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;

/**
 * A transaction prepared at a checkpoint's barrier, as the checkpoint keeps it: its transactional id's
 * producer id and epoch, so that a process started again after the old one died can commit it, which
 * is the only way its records (the sources resume after them) are not lost.
 *
 * <p>kafka-clients has no public way to complete a transaction another producer opened (its
 * two-phase-commit API is not public in this release), so {@link #resumeIn} sets the new producer's
 * transaction state to the old one's through the client's own fields, as Flink's Kafka connector does:
 * the producer then commits it as if it had opened it. A client whose fields differ fails here, naming
 * what it lacks, rather than abort the transaction.
 *
 * @param producerId the producer id the broker gave the transactional id
 * @param epoch the producer epoch of the transaction
 * @param transactionsV2 whether the producer ran Kafka's second transaction protocol
 */
record PreparedTransaction(long producerId, short epoch, boolean transactionsV2) {
    private static final String MANAGER = "org.apache.kafka.clients.producer.internals.TransactionManager";
    private static final String STATE = MANAGER + "$State";
    private static final String ID_AND_EPOCH = "org.apache.kafka.common.utils.internals.ProducerIdAndEpoch";

    /** The transaction {@code producer} has open, as the broker knows it. */
    static PreparedTransaction of(KafkaProducer<?, ?> producer) {
        try {
            Object manager = field(KafkaProducer.class, "transactionManager").get(producer);
            Object idAndEpoch = field(manager.getClass(), "producerIdAndEpoch").get(manager);
            long id = (long) field(idAndEpoch.getClass(), "producerId").get(idAndEpoch);
            short epoch = (short) field(idAndEpoch.getClass(), "epoch").get(idAndEpoch);
            boolean v2 = (boolean)
                    manager.getClass().getMethod("isTransactionV2Enabled").invoke(manager);
            return new PreparedTransaction(id, epoch, v2);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw unsupported("read a transaction's producer id and epoch", e);
        }
    }

    /**
     * Makes {@code producer}, new and not initialised, the owner of this transaction, open: its {@code
     * commitTransaction} then commits it. The producer must have the transaction's transactional id.
     */
    void resumeIn(KafkaProducer<?, ?> producer) {
        try {
            Object manager = field(KafkaProducer.class, "transactionManager").get(producer);
            Class<?> managerClass = Class.forName(MANAGER, false, KafkaProducer.class.getClassLoader());
            Class<?> stateClass = Class.forName(STATE, false, KafkaProducer.class.getClassLoader());
            Method transitionTo = managerClass.getDeclaredMethod("transitionTo", stateClass);
            transitionTo.setAccessible(true);
            Object idAndEpoch = Class.forName(ID_AND_EPOCH, false, KafkaProducer.class.getClassLoader())
                    .getConstructor(long.class, short.class)
                    .newInstance(producerId, epoch);
            synchronized (manager) {
                transitionTo.invoke(manager, state(stateClass, "INITIALIZING"));
                field(managerClass, "producerIdAndEpoch").set(manager, idAndEpoch);
                managerClass
                        .getMethod("maybeUpdateTransactionV2Enabled", boolean.class)
                        .invoke(manager, transactionsV2);
                transitionTo.invoke(manager, state(stateClass, "READY"));
                transitionTo.invoke(manager, state(stateClass, "IN_TRANSACTION"));
                field(managerClass, "transactionStarted").set(manager, true);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw unsupported("resume a prepared transaction in a new producer", e);
        }
    }

    private static Object state(Class<?> stateClass, String name) {
        for (Object constant : stateClass.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new IllegalStateException("no transaction state " + name);
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static KafkaException unsupported(String what, Throwable cause) {
        return new KafkaException(
                "cannot " + what + " with this kafka-clients ("
                        + KafkaProducer.class.getPackage().getImplementationVersion()
                        + "): its producer's transaction fields are not those this connector knows: " + cause,
                cause);
    }
}
