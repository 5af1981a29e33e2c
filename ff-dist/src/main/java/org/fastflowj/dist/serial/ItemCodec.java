package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.io.Output;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.SerializationConfig;

/**
 * Writes items into, and reads them from, Netty buffers: a user {@link ItemSerializer} for an item whose exact
 * class has one, Kryo for everything else. Layout of one item: see the package documentation.
 *
 * <p>Threading: not thread-safe. Kryo and the reused output/input objects are mutable state, so every sender and
 * every receiver thread owns its own codec, built from the same {@link SerializationConfig}. Codecs are cheap enough
 * to make one per node thread and long-lived enough that nothing is allocated per item beyond what Kryo or the user
 * serializer allocate for the object itself.
 */
public final class ItemCodec {
    /** Tag byte of an item written by Kryo; tag {@code 1 + i} means the i-th custom serializer of the config. */
    static final int KRYO_TAG = 0;
    /**
     * Tag byte of a {@code byte[]} without a custom serializer: the payload is the array's bytes, its length the
     * item's length. One bulk copy each way, no Kryo call, no intermediate buffer (the payload of
     * NetThroughput's Kryo cells). The custom serializers' tags stop below it.
     */
    static final int BYTES_TAG = 255;
    /** Tag byte + big-endian int payload length. */
    static final int HEADER_BYTES = 1 + Integer.BYTES;

    /**
     * Kryo reads this property once, when its {@code Util} class loads, to decide whether its field
     * serializers go through {@code sun.misc.Unsafe}, which JDK 24 and later warn about on stderr and a
     * later JDK will refuse. Set to false there, before any codec builds a Kryo, unless the application
     * chose already; older JDKs keep the faster Unsafe fields (NetThroughput's Kryo cells). The wire
     * format does not depend on it.
     */
    static final String KRYO_UNSAFE_PROPERTY = "kryo.unsafe";

    static {
        if (Runtime.version().feature() >= 24 && System.getProperty(KRYO_UNSAFE_PROPERTY) == null) {
            System.setProperty(KRYO_UNSAFE_PROPERTY, "false");
        }
    }

    private static final byte[] NO_BYTES = new byte[0];
    private static final VarHandle BIG_ENDIAN_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final SerializationConfig config;
    private final Class<?>[] customTypes;
    private final ItemSerializer<Object>[] customSerializers;
    private final ByteBufWireOutput wireOutput = new ByteBufWireOutput();
    private final ByteBufWireInput wireInput = new ByteBufWireInput();
    /**
     * Kryo writes into this reused array, then one bulk copy moves it into the Netty buffer: cheaper for small
     * items than a Kryo Output flushing through an OutputStream over the ByteBuf, dearer for a large byte[]
     * (one copy more). Small items dominate; big arrays belong in an ItemSerializer.
     */
    private final Output kryoOutput = new Output(4096, -1);

    private final BoundedInput kryoInput = new BoundedInput();
    /** Copy of the item's bytes when the Netty buffer is direct (Kryo's Input reads from an array). */
    private byte[] scratch = NO_BYTES;

    private final int maxObjectsPerItem;
    /**
     * The macro data-flow parameter values of this codec's link: as a sender, what the peer holds; as a
     * receiver, what this group keeps. They last as long as the codec, past a Kryo renewed after a failure.
     */
    private final HeldValues held;

    private final CachedValues kept;
    private GuardedKryo kryo;
    private ByteBuf roundTripBuffer;

    /**
     * A codec whose reads build at most {@link DffConfig#DEFAULT_MAX_OBJECTS_PER_ITEM} objects per item, and
     * whose link keeps {@link DffConfig#DEFAULT_MAX_CACHED_BYTES_PER_LINK} of parameter values.
     */
    public ItemCodec(SerializationConfig config) {
        this(config, DffConfig.DEFAULT_MAX_OBJECTS_PER_ITEM);
    }

    /**
     * A codec whose reads refuse an item that builds more than {@code maxObjectsPerItem} objects (Kryo's
     * items; a custom serializer builds what it builds).
     */
    public ItemCodec(SerializationConfig config, int maxObjectsPerItem) {
        this(config, maxObjectsPerItem, DffConfig.DEFAULT_MAX_CACHED_BYTES_PER_LINK);
    }

    /**
     * A codec for a link whose receiving group keeps up to {@code maxCachedBytes} of macro data-flow
     * parameter values ({@code maxCachedBytesPerLink}; 0: none, every value goes in full): a value that group
     * holds in the same version is written as a reference ({@link CrossingParametersSerializer}). Both ends
     * of a link must use the same bound.
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
    public ItemCodec(SerializationConfig config, int maxObjectsPerItem, long maxCachedBytes) {
        if (maxObjectsPerItem < 1) {
            throw new IllegalArgumentException("maxObjectsPerItem must be at least 1: " + maxObjectsPerItem);
        }
        if (maxCachedBytes < 0) {
            throw new IllegalArgumentException("maxCachedBytes must be at least 0: " + maxCachedBytes);
        }
        this.config = config;
        this.maxObjectsPerItem = maxObjectsPerItem;
        Map<Class<?>, ItemSerializer<?>> custom = config.serializers();
        this.customTypes = custom.keySet().toArray(new Class<?>[0]);
        this.customSerializers = custom.values().toArray(new ItemSerializer[0]);
        this.held = new HeldValues(maxCachedBytes);
        this.kept = new CachedValues(maxCachedBytes);
        this.kryo = newKryo();
    }

    private GuardedKryo newKryo() {
        return new GuardedKryo(config, maxObjectsPerItem, new CrossingParametersSerializer(held, kept));
    }

    public SerializationConfig config() {
        return config;
    }

    /**
     * Starts a batch: what Kryo remembers between items (the ids it gave unregistered class names, so each name
     * travels once) starts over here. The writer calls it before the first item of each batch, the reader before
     * reading each batch, so both forget at the same point of the stream; an item's bytes may refer to a name
     * written earlier in its batch and must stay in it.
     */
    public void startBatch() {
        kryo.reset();
    }

    /**
     * Appends one item to {@code out}. On failure nothing is appended and the exception says why: a
     * {@link ClassNotAllowedException} when the item holds a class the config does not allow, an
     * {@link IllegalArgumentException} wrapping anything else.
     */
    public void write(Object item, ByteBuf out) {
        int start = out.writerIndex();
        held.startItem();
        try {
            int custom = customIndexOf(item);
            if (custom >= 0) {
                writeCustom(custom, item, out);
            } else if (item instanceof byte[] bytes) {
                writeByteArray(bytes, out);
            } else {
                writeKryo(item, out);
            }
        } catch (RuntimeException | Error e) {
            out.writerIndex(start);
            held.revertItem();
            throw failure(e, "cannot serialize " + describe(item));
        } catch (Exception e) {
            out.writerIndex(start);
            held.revertItem();
            throw failure(e, "cannot serialize " + describe(item));
        }
    }

    /**
     * The item written last will not reach the receiver as written (its bytes were cut off the buffer):
     * what it told the account of the receiver's parameter values is taken back, so writing it again, in
     * another batch, sends in full what the first writing had sent in full.
     */
    public void unwriteLast() {
        held.revertItem();
    }

    /** As a sender: the account of what the receiver keeps (for tests). */
    HeldValues heldValues() {
        return held;
    }

    /** As a receiver: what this group keeps (for tests). */
    CachedValues keptValues() {
        return kept;
    }

    /** Parameter values this codec sent in full with an identity, and as references (for statistics). */
    public long parameterValuesSentInFull() {
        return held.valuesSentInFull();
    }

    public long parameterReferencesSent() {
        return held.referencesSent();
    }

    private void writeCustom(int index, Object item, ByteBuf out) throws Exception {
        int start = out.writerIndex();
        out.ensureWritable(HEADER_BYTES);
        out.writerIndex(start + HEADER_BYTES); // the header is written below, once the payload length is known
        try {
            customSerializers[index].write(item, wireOutput.target(out));
        } finally {
            wireOutput.clear();
        }
        int length = out.writerIndex() - start - HEADER_BYTES;
        if (out.hasArray()) { // one access check of the buffer instead of one per header field
            byte[] array = out.array();
            int offset = out.arrayOffset() + start;
            array[offset] = (byte) (1 + index);
            BIG_ENDIAN_INT.set(array, offset + 1, length);
        } else {
            out.setByte(start, 1 + index);
            out.setInt(start + 1, length);
        }
    }

    private static void writeByteArray(byte[] bytes, ByteBuf out) {
        int length = bytes.length;
        out.ensureWritable(HEADER_BYTES + length);
        int at = out.writerIndex();
        if (out.hasArray()) {
            byte[] array = out.array();
            int offset = out.arrayOffset() + at;
            array[offset] = (byte) BYTES_TAG;
            BIG_ENDIAN_INT.set(array, offset + 1, length);
            System.arraycopy(bytes, 0, array, offset + HEADER_BYTES, length);
            out.writerIndex(at + HEADER_BYTES + length);
        } else {
            out.writeByte(BYTES_TAG);
            out.writeInt(length);
            out.writeBytes(bytes, 0, length);
        }
    }

    private void writeKryo(Object item, ByteBuf out) {
        kryoOutput.reset();
        kryo.writeClassAndObject(kryoOutput, item);
        int length = kryoOutput.position();
        out.ensureWritable(HEADER_BYTES + length);
        int at = out.writerIndex();
        if (out.hasArray()) {
            // Straight into the heap batch: one capacity check above instead of one per call below, which
            // counts for tiny items. The reading side keeps the buffer's own calls, which serve it better.
            byte[] array = out.array();
            int offset = out.arrayOffset() + at;
            array[offset] = KRYO_TAG;
            BIG_ENDIAN_INT.set(array, offset + 1, length);
            System.arraycopy(kryoOutput.getBuffer(), 0, array, offset + HEADER_BYTES, length);
            out.writerIndex(at + HEADER_BYTES + length);
        } else {
            out.writeByte(KRYO_TAG);
            out.writeInt(length);
            out.writeBytes(kryoOutput.getBuffer(), 0, length);
        }
    }

    private int customIndexOf(Object item) {
        if (item == null) {
            return -1;
        }
        Class<?> type = item.getClass();
        // A config has a handful of custom serializers at most: a linear scan beats hashing.
        for (int i = 0; i < customTypes.length; i++) {
            if (customTypes[i] == type) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Reads one item and leaves {@code in}'s reader index just past it. Fails with {@link CorruptFrameException}
     * when the bytes are not one well-formed item (never allocating more than the item's own size for it), or with
     * {@link ClassNotAllowedException} when the item names a class the config does not allow; either way the reader
     * index is left where it was. Running out of memory is not the item's fault: the {@code OutOfMemoryError} (any
     * {@link VirtualMachineError}) goes on as it is.
     */
    public Object read(ByteBuf in) {
        int start = in.readerIndex();
        try {
            if (in.readableBytes() < HEADER_BYTES) {
                throw new CorruptFrameException(
                        "truncated item: " + in.readableBytes() + " bytes, a header alone takes " + HEADER_BYTES);
            }
            // A heap batch's header and byte[] payload are read from its array: one access check of the
            // buffer per item instead of one per read call, which per 8-byte item is a large share of the
            // receiver's work (a JFR profile of NetThroughput's 8 B cells).
            byte[] array = in.hasArray() ? in.array() : null;
            int at = array == null ? 0 : in.arrayOffset() + start;
            int tag = array == null ? in.getUnsignedByte(start) : array[at] & 0xFF;
            int length = array == null ? in.getInt(start + 1) : (int) BIG_ENDIAN_INT.get(array, at + 1);
            int available = in.readableBytes() - HEADER_BYTES;
            if (length < 0 || length > available) {
                throw new CorruptFrameException(
                        "item announces " + length + " payload bytes, " + available + " are there");
            }
            in.readerIndex(start + HEADER_BYTES);
            int end = start + HEADER_BYTES + length;
            Object item;
            if (tag == BYTES_TAG) {
                item = readByteArray(in, array, at + HEADER_BYTES, length);
            } else {
                item = tag == KRYO_TAG ? readKryo(in, length) : readCustom(tag, in, end);
            }
            in.readerIndex(end);
            return item;
        } catch (RuntimeException | Error e) {
            in.readerIndex(start);
            throw readFailure(e);
        } catch (Exception e) {
            in.readerIndex(start);
            throw readFailure(e);
        }
    }

    private Object readKryo(ByteBuf in, int length) {
        byte[] bytes;
        int offset;
        if (in.hasArray()) {
            bytes = in.array();
            offset = in.arrayOffset() + in.readerIndex();
        } else {
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, 2 * scratch.length)];
            }
            in.getBytes(in.readerIndex(), scratch, 0, length);
            bytes = scratch;
            offset = 0;
        }
        kryoInput.setBuffer(bytes, offset, length);
        kryo.startItem();
        try {
            Object item = kryo.readClassAndObject(kryoInput);
            int used = kryoInput.position() - offset;
            if (used != length) {
                throw new CorruptFrameException("Kryo read " + used + " of the item's " + length + " bytes");
            }
            return item;
        } finally {
            kryoInput.setBuffer(NO_BYTES); // do not pin the Netty buffer's memory
        }
    }

    /**
     * The length was checked against the bytes there before: the array is never larger than the item. From
     * {@code array} at {@code offset} when the buffer is on the heap (null: read through the buffer).
     */
    private static byte[] readByteArray(ByteBuf in, byte[] array, int offset, int length) {
        byte[] bytes = new byte[length];
        if (array != null) {
            System.arraycopy(array, offset, bytes, 0, length);
        } else {
            in.getBytes(in.readerIndex(), bytes);
        }
        return bytes;
    }

    private Object readCustom(int tag, ByteBuf in, int end) throws Exception {
        int index = tag - 1;
        if (index >= customSerializers.length) {
            throw new CorruptFrameException(
                    "item tag " + tag + " names custom serializer #" + index + ", the config has "
                            + customSerializers.length + " (do both ends use the same SerializationConfig?)");
        }
        Object item;
        try {
            item = customSerializers[index].read(wireInput.source(in, end));
        } finally {
            wireInput.clear();
        }
        if (in.readerIndex() != end) {
            throw new CorruptFrameException(customSerializers[index].getClass().getName() + " left "
                    + (end - in.readerIndex()) + " bytes of a " + customTypes[index].getName() + " unread");
        }
        return item;
    }

    /**
     * Writes {@code item} and reads it back, as a receiver in another process would: the "check serialization" mode
     * of a one-process run passes every item of every edge through this. Reuses one buffer per codec.
     */
    public Object roundTrip(Object item) {
        if (roundTripBuffer == null) {
            roundTripBuffer = Unpooled.buffer(256);
        }
        roundTripBuffer.clear();
        startBatch();
        write(item, roundTripBuffer);
        startBatch();
        return read(roundTripBuffer);
    }

    private RuntimeException failure(Throwable e, String context) {
        rethrowIfFatal(e);
        renewKryo();
        ClassNotAllowedException refused = find(e, ClassNotAllowedException.class);
        if (refused != null) {
            return refused;
        }
        HiddenClassException hidden = find(e, HiddenClassException.class);
        if (hidden != null) {
            return new IllegalArgumentException(context + fieldPath(e) + ": " + hidden.getMessage(), e);
        }
        return new IllegalArgumentException(context + ": " + e, e);
    }

    /**
     * Where in the item Kryo was, from its serialization trace (one line per level, innermost first), as
     * {@code " (field lazyCountry of my.app.Item)"}; empty without a trace.
     */
    private static String fieldPath(Throwable e) {
        String message = e.getMessage();
        int trace = message == null ? -1 : message.indexOf("Serialization trace:");
        if (trace < 0) {
            return "";
        }
        List<String> levels = new ArrayList<>();
        for (String line : message.substring(trace).split("\\R")) {
            Matcher level = TRACE_LEVEL.matcher(line.strip());
            if (level.matches()) {
                levels.add("field " + level.group(1) + " of " + level.group(2));
            }
        }
        return levels.isEmpty() ? "" : " (" + String.join(", in ", levels) + ")";
    }

    /** A line of Kryo's serialization trace: {@code lazyCountry (my.app.Item)}. */
    private static final Pattern TRACE_LEVEL = Pattern.compile("(\\S+) \\(([^)]+)\\)");

    private RuntimeException readFailure(Throwable e) {
        rethrowIfFatal(e);
        renewKryo();
        ClassNotAllowedException refused = find(e, ClassNotAllowedException.class);
        if (refused != null) {
            return refused;
        }
        if (e instanceof CorruptFrameException corrupt) {
            return corrupt;
        }
        CorruptFrameException bounded = find(e, CorruptFrameException.class);
        String detail = bounded != null ? bounded.getMessage() : e.toString();
        return new CorruptFrameException("malformed item: " + detail, e);
    }

    /**
     * Running out of memory (or another JVM error) while reading or writing an item says nothing about its
     * bytes: it goes on as what it is, not as a malformed item, and the node thread halts the JVM.
     */
    private static void rethrowIfFatal(Throwable e) {
        VirtualMachineError fatal = find(e, VirtualMachineError.class);
        if (fatal != null) {
            throw fatal;
        }
    }

    /** After a failure Kryo may be mid-graph (depth, generics, class-name tables): start over with a fresh one. */
    private void renewKryo() {
        kryo = newKryo();
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return kind.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static String describe(Object item) {
        return item == null ? "null" : "an item of " + item.getClass().getName();
    }
}
