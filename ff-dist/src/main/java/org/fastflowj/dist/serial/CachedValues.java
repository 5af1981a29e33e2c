package org.fastflowj.dist.serial;

/**
 * The macro data-flow parameter values a worker group keeps from one peer's tasks, by object identity, so
 * that the peer's later tasks may name them instead of sending them again: what the peer's {@link
 * HeldValues} says this group holds. It keeps what the messages say, in their order: a value sent in full
 * is kept (or replaces the one kept under its identity), an eviction drops one. A reference to an identity
 * not kept, an eviction of one, or more kept than {@code maxCachedBytesPerLink} allows means the two sides
 * no longer agree (or the peer is hostile): the item is refused as corrupt, never answered with a wrong
 * value.
 *
 * <p>A task that writes a kept value writes it in place: the next task of the peer that names it gets the
 * new version, as the peer's account says. No other task uses the value meanwhile: the tasks that read
 * the version before were done before the writer was handed out (write after read), and a task that uses
 * the new version is handed out only once the writer's result reached the peer, which this group's sender
 * had read the value for before the result left. So the kept values need no lock; the hand-offs between
 * this group's threads are channels, and between the two groups a round trip through the peer.
 *
 * <p>Threading: the receiver's thread (its codec's); a value is handed to a worker through a channel.
 */
final class CachedValues {
    private static final class Kept {
        final Object value;
        final int weight;

        Kept(Object value, int weight) {
            this.value = value;
            this.weight = weight;
        }
    }

    private final long capacity;
    private final LongTable<Kept> table = new LongTable<>();
    private long weight;

    /** @param capacity this group's {@code maxCachedBytesPerLink} */
    CachedValues(long capacity) {
        this.capacity = capacity;
    }

    /** The value kept under {@code id}. */
    Object get(long id) {
        Kept kept = table.get(id);
        if (kept == null) {
            throw new CorruptFrameException("a macro data-flow task names parameter value #" + id
                    + ", which this group does not keep (the sender and this group disagree about what it holds)");
        }
        return kept.value;
    }

    /** Keeps {@code value}, sent in full in {@code bytes}, under {@code id}. */
    void keep(long id, Object value, int bytes) {
        Kept kept = new Kept(value, bytes + HeldValues.ENTRY_OVERHEAD_BYTES);
        Kept replaced = table.put(id, kept);
        weight += kept.weight - (replaced == null ? 0 : replaced.weight);
    }

    /** Drops the value kept under {@code id}, as the sender said. */
    void evict(long id) {
        Kept kept = table.remove(id);
        if (kept == null) {
            throw new CorruptFrameException("a macro data-flow task evicts parameter value #" + id
                    + ", which this group does not keep (the sender and this group disagree about what it holds)");
        }
        weight -= kept.weight;
    }

    /** After a task's message: what is kept must fit, as the sender's account of it does. */
    void checkBound() {
        if (weight > capacity) {
            throw new CorruptFrameException("the macro data-flow tasks sent here would have this group keep " + weight
                    + " bytes of parameter values, more than its maxCachedBytesPerLink (" + capacity + ")");
        }
    }

    /** Values kept (for tests). */
    int size() {
        return table.size();
    }

    /** Bytes kept, overheads included (for tests). */
    long weight() {
        return weight;
    }
}
