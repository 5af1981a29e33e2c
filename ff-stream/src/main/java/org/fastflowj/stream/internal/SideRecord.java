package org.fastflowj.stream.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoSerializable;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.fastflowj.stream.DeadLetter;

/**
 * A late record or a dead letter on its way to its side sink: it travels down its stream with the
 * records, past every operator untouched, and is written by the stream's sink node. So it passes the
 * same checkpoint barriers as the records, and the side sink rolls back with the stream's sink.
 *
 * <p>Between groups a dead letter's error crosses as a {@link ErrorCopy} (its class name, message and
 * stack trace): an exception's own fields are not a wire format.
 */
public final class SideRecord implements KryoSerializable {
    /** Frames of a dead letter's stack trace that cross groups: enough to find the failing line. */
    private static final int MAX_FRAMES = 64;

    private int sink;
    private Object value;

    /** For Kryo, which {@link #read}s the fields in. */
    private SideRecord() {}

    SideRecord(int sink, Object value) {
        this.sink = sink;
        this.value = value;
    }

    /** The side sink's index in its job ({@link SideSink#index}). */
    int sink() {
        return sink;
    }

    Object value() {
        return value;
    }

    @Override
    public void write(Kryo kryo, Output out) {
        out.writeVarInt(sink, true);
        if (!(value instanceof DeadLetter letter)) {
            out.writeBoolean(false);
            kryo.writeClassAndObject(out, value);
            return;
        }
        out.writeBoolean(true);
        out.writeString(letter.operator());
        out.writeVarInt(letter.instance(), true);
        kryo.writeClassAndObject(out, letter.record());
        Throwable error = letter.error();
        out.writeString(
                error instanceof ErrorCopy copy
                        ? copy.className()
                        : error.getClass().getName());
        out.writeString(error.getMessage());
        StackTraceElement[] frames = error.getStackTrace();
        int count = Math.min(frames.length, MAX_FRAMES);
        out.writeVarInt(count, true);
        for (int i = 0; i < count; i++) {
            out.writeString(frames[i].getClassLoaderName());
            out.writeString(frames[i].getModuleName());
            out.writeString(frames[i].getModuleVersion());
            out.writeString(frames[i].getClassName());
            out.writeString(frames[i].getMethodName());
            out.writeString(frames[i].getFileName());
            out.writeVarInt(frames[i].getLineNumber(), false);
        }
    }

    @Override
    public void read(Kryo kryo, Input in) {
        sink = in.readVarInt(true);
        if (!in.readBoolean()) {
            value = kryo.readClassAndObject(in);
            return;
        }
        String operator = in.readString();
        int instance = in.readVarInt(true);
        Object record = kryo.readClassAndObject(in);
        String className = in.readString();
        String message = in.readString();
        int count = in.readVarInt(true);
        if (count > MAX_FRAMES) {
            throw new IllegalArgumentException(
                    "a dead letter's error has " + count + " frames, more than " + MAX_FRAMES);
        }
        StackTraceElement[] frames = new StackTraceElement[count];
        for (int i = 0; i < count; i++) {
            frames[i] = new StackTraceElement(
                    in.readString(),
                    in.readString(),
                    in.readString(),
                    in.readString(),
                    in.readString(),
                    in.readString(),
                    in.readVarInt(false));
        }
        value = new DeadLetter(operator, instance, record, new ErrorCopy(className, message, frames));
    }

    @Override
    public String toString() {
        return "side record " + value;
    }
}
