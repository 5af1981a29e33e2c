package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.fastflowj.patterns.crossing.CrossingParameters;

/**
 * A macro data-flow task's parameters on one link: a value the receiving group holds in the same version
 * goes as a reference to it, any other in full, and the receiving group keeps what came in full.
 *
 * <pre>
 *   [count &lt;&lt; 1 | identified: varint]
 *   per parameter: [flags: byte = kind | written]
 *       PLAIN      value (Kryo's writeClassAndObject)      not identified: the way back, or nothing cached
 *       FULL       [id: varlong] value                      kept by the receiver under id
 *       REFERENCE  [id: varlong]                            the value kept under id
 *   identified only: [evictions: varint] [id: varlong]*     values the receiver drops, after the parameters
 * </pre>
 *
 * Which it is, the sender decides from its account of the receiver ({@link HeldValues}), when it writes the
 * item for that link: the same task may go as references on one link and in full on another, or again in
 * full on a link after another group that held it was lost. The receiver follows ({@link CachedValues}).
 * A task that writes a value makes the receiver hold the next version of it: the worker there writes the
 * kept value in place, so the next task that names it at that version gets a reference.
 *
 * <p>Threading: one per Kryo, so one per codec thread; the account and the kept values are its codec's.
 */
final class CrossingParametersSerializer extends Serializer<CrossingParameters> {
    static final int WRITTEN = 1;
    static final int PLAIN = 0;
    static final int FULL = 2;
    static final int REFERENCE = 4;

    private final HeldValues held;
    private final CachedValues kept;

    CrossingParametersSerializer(HeldValues held, CachedValues kept) {
        super(false, true); // never null here (the field's null flag is Kryo's), and immutable once read
        this.held = held;
        this.kept = kept;
    }

    @Override
    public void write(Kryo kryo, Output output, CrossingParameters parameters) {
        int count = parameters.count();
        boolean identified = parameters.identified() && held.caches();
        output.writeVarInt(count << 1 | (identified ? 1 : 0), true);
        for (int i = 0; i < count; i++) {
            int written = parameters.written(i) ? WRITTEN : 0;
            if (!identified) {
                output.writeByte(PLAIN | written);
                kryo.writeClassAndObject(output, parameters.value(i));
                continue;
            }
            long id = parameters.id(i);
            int version = parameters.version(i);
            if (held.holds(id, version)) {
                output.writeByte(REFERENCE | written);
                output.writeVarLong(id, true);
            } else {
                output.writeByte(FULL | written);
                output.writeVarLong(id, true);
                int start = output.position();
                kryo.writeClassAndObject(output, parameters.value(i));
                held.sentInFull(id, version, output.position() - start);
            }
            if (written != 0) {
                held.writtenThere(id, version + 1);
            }
        }
        if (identified) {
            int evictions = held.evictOverCapacity();
            output.writeVarInt(evictions, true);
            for (int e = 0; e < evictions; e++) {
                output.writeVarLong(held.evicted(e), true);
            }
        }
    }

    @Override
    public CrossingParameters read(Kryo kryo, Input input, Class<? extends CrossingParameters> type) {
        int header = input.readVarInt(true);
        int count = header >>> 1;
        boolean identified = (header & 1) != 0;
        ((BoundedInput) input).requireCount(count, "a macro data-flow task's parameters");
        Object[] values = new Object[count];
        boolean[] written = new boolean[count];
        for (int i = 0; i < count; i++) {
            int flags = input.readByte() & 0xFF;
            written[i] = (flags & WRITTEN) != 0;
            int kind = flags & ~WRITTEN;
            if (kind == PLAIN && !identified) {
                values[i] = kryo.readClassAndObject(input);
            } else if (kind == FULL && identified) {
                long id = input.readVarLong(true);
                int start = input.position();
                values[i] = kryo.readClassAndObject(input);
                kept.keep(id, values[i], input.position() - start);
            } else if (kind == REFERENCE && identified) {
                values[i] = kept.get(input.readVarLong(true));
            } else {
                throw new CorruptFrameException("a macro data-flow task's parameter " + i + " has flags " + flags
                        + (identified ? " among identified ones" : " among plain ones"));
            }
        }
        if (identified) {
            int evictions = input.readVarInt(true);
            ((BoundedInput) input).requireCount(evictions, "a macro data-flow task's evictions");
            for (int e = 0; e < evictions; e++) {
                kept.evict(input.readVarLong(true));
            }
            kept.checkBound();
        }
        return new CrossingParameters(values, written);
    }
}
