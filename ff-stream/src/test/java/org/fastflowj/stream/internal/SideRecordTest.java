package org.fastflowj.stream.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Arrays;
import org.fastflowj.stream.DeadLetter;
import org.junit.jupiter.api.Test;

/** A side record as it crosses groups: a late record as it is, a dead letter with a copy of its error. */
class SideRecordTest {
    private static Object roundTrip(Object item) {
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(false);
        Output out = new Output(256, -1);
        kryo.writeClassAndObject(out, item);
        return kryo.readClassAndObject(new Input(out.toBytes()));
    }

    @Test
    void aLateRecordCrossesAsItIs() {
        SideRecord read = (SideRecord) roundTrip(new SideRecord(3, "late click"));

        assertThat(read.sink()).isEqualTo(3);
        assertThat(read.value()).isEqualTo("late click");
    }

    @Test
    void aDeadLettersErrorCrossesAsACopyThatPrintsAsTheOriginal() {
        NumberFormatException error = parse("x1");
        DeadLetter letter = new DeadLetter("parse", 1, "x1", error);

        SideRecord read = (SideRecord) roundTrip(new SideRecord(0, letter));
        DeadLetter copy = (DeadLetter) read.value();

        assertThat(copy.operator()).isEqualTo("parse");
        assertThat(copy.instance()).isEqualTo(1);
        assertThat(copy.record()).isEqualTo("x1");
        assertThat(copy.error()).isInstanceOf(ErrorCopy.class).hasMessage(error.getMessage());
        assertThat(copy.toString()).isEqualTo(letter.toString());
        StackTraceElement[] frames = error.getStackTrace();
        assertThat(copy.error().getStackTrace()).containsExactly(Arrays.copyOf(frames, Math.min(frames.length, 64)));
        // Crossing a second group keeps the original's class name.
        DeadLetter twice = (DeadLetter) ((SideRecord) roundTrip(read)).value();
        assertThat(twice.toString()).isEqualTo(letter.toString());
    }

    @Test
    void anErrorWithoutAMessageAndADeepStackCrossesItsFirstFrames() {
        IllegalStateException error = deep(200);
        DeadLetter copy =
                (DeadLetter) ((SideRecord) roundTrip(new SideRecord(0, new DeadLetter("deep", 0, 7, error)))).value();

        assertThat(copy.error().toString()).isEqualTo("java.lang.IllegalStateException");
        assertThat(copy.error().getStackTrace()).containsExactly(Arrays.copyOf(error.getStackTrace(), 64));
    }

    private static NumberFormatException parse(String text) {
        try {
            Integer.parseInt(text);
            throw new AssertionError("parsed " + text);
        } catch (NumberFormatException e) {
            return e;
        }
    }

    private static IllegalStateException deep(int depth) {
        return depth == 0 ? new IllegalStateException() : deep(depth - 1);
    }
}
