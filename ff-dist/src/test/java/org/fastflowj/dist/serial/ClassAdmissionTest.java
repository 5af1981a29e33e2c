package org.fastflowj.dist.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.Colour;
import com.acme.LazyOrder;
import com.acme.Secret;
import com.acme.Tripwire;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Only allowed classes cross groups; the refusal says how to allow one, on both sides. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClassAdmissionTest {
    private static final String SECRET_ADVICE = "class com.acme.Secret is not allowed to cross groups: add"
            + " DFF.register(com.acme.Secret.class) to the program before it runs, in every group in the same order"
            + " (or DFF.allowPackage(\"com.acme\") for its whole package)";

    private static final SerializationConfig ALLOWS_ACME =
            SerializationConfig.builder().allowPackage("com.acme").build();

    @Test
    void theReceiverRefusesAClassNamedInAFrameWithTheAdvice() {
        Buffers.withHeap(buf -> {
            new ItemCodec(ALLOWS_ACME).write(new Secret(), buf);
            assertThatThrownBy(() -> new ItemCodec(SerializationConfig.defaults()).read(buf))
                    .isInstanceOf(ClassNotAllowedException.class)
                    .hasMessage(SECRET_ADVICE);
            assertThat(buf.readerIndex()).isZero();
            return null;
        });
    }

    @Test
    void theSenderRefusesFirstSoAOneProcessTestFindsIt() {
        ItemCodec codec = new ItemCodec(SerializationConfig.defaults());
        Buffers.withHeap(buf -> {
            assertThatThrownBy(() -> codec.write(new Secret(), buf))
                    .isInstanceOf(ClassNotAllowedException.class)
                    .hasMessage(SECRET_ADVICE);
            assertThat(buf.writerIndex()).as("nothing half-written").isZero();
            return null;
        });
        // Nested inside an allowed collection, or as an array element type, it is refused just the same.
        assertThatThrownBy(() -> codec.roundTrip(new ArrayList<>(List.of(new Secret()))))
                .isInstanceOf(ClassNotAllowedException.class)
                .hasMessage(SECRET_ADVICE);
        assertThatThrownBy(() -> codec.roundTrip(new Secret[] {new Secret()}))
                .isInstanceOf(ClassNotAllowedException.class)
                .hasMessage(SECRET_ADVICE);
        assertThatThrownBy(() -> codec.roundTrip(Colour.RED))
                .isInstanceOf(ClassNotAllowedException.class)
                .hasMessageContaining("com.acme.Colour");
        // The codec keeps working after a refusal.
        assertThat(codec.roundTrip(List.of("fine"))).isEqualTo(List.of("fine"));
    }

    @Test
    void theSenderRefusesALambdaNamingTheFieldThatHoldsIt() {
        ItemCodec codec = new ItemCodec(ALLOWS_ACME);
        Buffers.withHeap(buf -> {
            assertThatThrownBy(() -> codec.write(new LazyOrder(), buf))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                            "cannot serialize an item of com.acme.LazyOrder (field lazyCountry of com.acme.LazyOrder):"
                                    + " it holds a lambda or another hidden class (com.acme.LazyOrder$$Lambda")
                    .hasMessageContaining("which cannot cross groups")
                    .hasMessageNotContaining("\n");
            assertThat(buf.writerIndex()).as("nothing half-written").isZero();
            return null;
        });
        Supplier<String> bare = () -> "IT";
        assertThatThrownBy(() -> codec.roundTrip(bare))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hidden class")
                .hasMessageNotContaining("(field");
        LazyOrder plain = new LazyOrder();
        plain.lazyCountry = null;
        assertThat(((LazyOrder) codec.roundTrip(plain)).name).isEqualTo("order");
    }

    @Test
    void registeringOrAllowingThePackageLetsItThrough() {
        SerializationConfig registered =
                SerializationConfig.builder().register(Secret.class).build();
        assertThat(((Secret) new ItemCodec(registered).roundTrip(new Secret())).code)
                .isEqualTo(7);
        assertThat(((Secret) new ItemCodec(ALLOWS_ACME).roundTrip(new Secret())).code)
                .isEqualTo(7);
        assertThat(((Secret[]) new ItemCodec(ALLOWS_ACME).roundTrip(new Secret[] {new Secret()}))[0].code)
                .isEqualTo(7);
    }

    @Test
    void aPackagePrefixDoesNotAllowAPackageThatMerelySharesItsLetters() {
        SerializationConfig acm =
                SerializationConfig.builder().allowPackage("com.acm").build();
        assertThat(acm.allowsClassName("com.acme.Secret")).isFalse();
        assertThat(acm.allowsClassName("com.acm.sub.Thing")).isTrue();
        assertThat(acm.allowsClassName("[[Lcom.acm.Thing;")).isTrue();
        assertThat(acm.allowsClassName("[I")).isTrue();
        assertThat(acm.allowsClassName("java.util.concurrent.ConcurrentHashMap"))
                .isFalse();
        assertThat(acm.allowsClassName("java.lang.Runtime")).isFalse();
    }

    @Test
    void aRefusedClassIsNeverInitialised() {
        ByteBuf frame = frameNaming(Tripwire.class);
        try {
            assertThatThrownBy(() -> new ItemCodec(SerializationConfig.defaults()).read(frame))
                    .isInstanceOf(ClassNotAllowedException.class)
                    .hasMessageContaining("com.acme.Tripwire");
            assertThat(Tripwire.Flag.SET)
                    .as("static initialiser of a refused class")
                    .isFalse();

            // Control: the same frame, allowed, does initialise the class (so the check above can fail).
            assertThat(new ItemCodec(ALLOWS_ACME).read(frame)).isInstanceOf(Tripwire.class);
            assertThat(Tripwire.Flag.SET).isTrue();
        } finally {
            frame.release();
        }
    }

    /** A Kryo item frame naming {@code type} by name, written without ever creating (or initialising) it. */
    private static ByteBuf frameNaming(Class<?> type) {
        Kryo plain = new Kryo();
        plain.setRegistrationRequired(false);
        Output output = new Output(64);
        plain.writeClass(output, type); // Tripwire has no fields: the class is the whole item
        ByteBuf frame = io.netty.buffer.Unpooled.buffer();
        frame.writeByte(ItemCodec.KRYO_TAG)
                .writeInt(output.position())
                .writeBytes(output.getBuffer(), 0, output.position());
        return frame;
    }
}
