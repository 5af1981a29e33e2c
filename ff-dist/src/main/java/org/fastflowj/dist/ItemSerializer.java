package org.fastflowj.dist;

/**
 * A user-written serializer for exactly one item class, used instead of Kryo when that class crosses groups.
 *
 * <p>Meant for layouts that Kryo would handle element by element: a matrix backed by a {@code double[]} or a
 * {@link java.nio.ByteBuffer} can be written with one bulk copy ({@link WireOutput#writeDoubles}) and read back the
 * same way. {@link #read} sees exactly the bytes {@link #write} produced for the item: {@link WireInput#readableBytes()}
 * counts what is left of this item only, and the engine rejects an item whose reader leaves bytes unread.
 *
 * <p>Threading: the engine calls one instance from every sender and receiver thread of a process, so an
 * implementation must be stateless or thread-safe.
 *
 * @param <T> the exact class it serializes (subclasses are not matched)
 */
public interface ItemSerializer<T> {

    /** Appends {@code item} to {@code out}. */
    void write(T item, WireOutput out) throws Exception;

    /** Reads one item written by {@link #write}; must consume all of its bytes. */
    T read(WireInput in) throws Exception;
}
