package org.fastflowj.stream.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Writes a stream node's state for a checkpoint: the objects that hold it (tables of user keys and
 * accumulators, of any class) through Kryo, with references kept, so a table reached twice (a window's
 * current frame, also in its tree of frames) is one table again when read back. One codec per node
 * instance: it runs on that node's thread only.
 *
 * <p>Why Kryo, and without a class filter: the state holds the user's own key and accumulator classes,
 * unknown to the library, and the bytes come from the job's own checkpoint store, which only the
 * operator who runs the job may write (unlike a network frame from a peer).
 */
final class StateCodec {
    private final Kryo kryo = new Kryo();
    private final Output output = new Output(4096, -1);

    StateCodec() {
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        // A user's class without a no-argument constructor (a record, a value class) is made as Java
        // serialization makes it, its fields then set from the bytes.
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.register(KeyTable.class, new KeyTableSerializer());
        kryo.setClassLoader(Thread.currentThread().getContextClassLoader());
    }

    /** Writes {@code parts}, length-prefixed. */
    void write(DataOutput out, Object[] parts) throws IOException {
        output.reset();
        kryo.writeClassAndObject(output, parts);
        out.writeInt(output.position());
        out.write(output.getBuffer(), 0, output.position());
    }

    /** Reads what {@link #write} wrote. */
    Object[] read(DataInput in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        try {
            return (Object[]) kryo.readClassAndObject(new Input(bytes));
        } catch (RuntimeException e) {
            throw new IOException("cannot read a stream operator's state: " + e.getMessage(), e);
        }
    }

    /**
     * A key table as its entries: its slots hold hashes and marker objects that mean nothing in another
     * process (an enum key's hash is its identity), so it is rebuilt by inserting each key again. With
     * the same number of slots, and the keys inserted in slot order from a free slot on, every key whose
     * hash is stable (strings, numbers, records of them) lands in its slot again: a window fires its keys
     * in the order it would have without the restart.
     */
    private static final class KeyTableSerializer extends Serializer<KeyTable> {
        @Override
        public void write(Kryo kryo, Output out, KeyTable table) {
            out.writeBoolean(table.keepsSums());
            int slots = table.slots();
            out.writeVarInt(slots, true);
            out.writeVarInt(table.size(), true);
            int free = 0;
            while (table.used(free)) {
                free++;
            }
            for (int i = 1; i <= slots; i++) {
                int slot = (free + i) & (slots - 1);
                if (!table.used(slot)) {
                    continue;
                }
                kryo.writeClassAndObject(out, table.keyAt(slot));
                out.writeVarInt(table.countAt(slot), true);
                if (table.keepsSums()) {
                    out.writeLong(table.sumAt(slot));
                } else {
                    kryo.writeClassAndObject(out, table.valueAt(slot));
                }
            }
        }

        @Override
        public KeyTable read(Kryo kryo, Input in, Class<? extends KeyTable> type) {
            boolean sums = in.readBoolean();
            KeyTable table = KeyTable.withSlots(sums, in.readVarInt(true));
            kryo.reference(table);
            int size = in.readVarInt(true);
            for (int i = 0; i < size; i++) {
                Object key = kryo.readClassAndObject(in);
                int count = in.readVarInt(true);
                if (sums) {
                    long sum = in.readLong();
                    int slot = table.slotOf(key);
                    table.setCountAt(slot, count);
                    table.addToSum(slot, sum);
                } else {
                    Object value = kryo.readClassAndObject(in);
                    int slot = table.slotOf(key);
                    table.setCountAt(slot, count);
                    table.setValueAt(slot, value);
                }
            }
            return table;
        }
    }
}
