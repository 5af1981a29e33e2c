package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fingerprint tells two processes whether they encode items alike. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SerializationConfigTest {
    record A(int x) {}

    record B(int y) {}

    static final class ASerializer implements ItemSerializer<A> {
        @Override
        public void write(A item, WireOutput out) {
            out.writeInt(item.x());
        }

        @Override
        public A read(WireInput in) {
            return new A(in.readInt());
        }
    }

    @Test
    void equalConfigsHaveEqualFingerprints() {
        SerializationConfig one = SerializationConfig.builder()
                .register(A.class, B.class)
                .serializer(A.class, new ASerializer())
                .build();
        SerializationConfig two = SerializationConfig.builder()
                .register(A.class)
                .register(B.class)
                .serializer(A.class, new ASerializer())
                .allowPackage("com.acme") // does not change the encoding
                .build();
        assertThat(one.fingerprint()).isEqualTo(two.fingerprint());
    }

    @Test
    void differentRegistrationsHaveDifferentFingerprints() {
        long ab =
                SerializationConfig.builder().register(A.class, B.class).build().fingerprint();
        long ba =
                SerializationConfig.builder().register(B.class, A.class).build().fingerprint();
        long a = SerializationConfig.builder().register(A.class).build().fingerprint();
        long custom = SerializationConfig.builder()
                .register(A.class)
                .serializer(A.class, new ASerializer())
                .build()
                .fingerprint();
        assertThat(new long[] {ab, ba, a, custom, SerializationConfig.defaults().fingerprint()})
                .doesNotHaveDuplicates();
    }

    @Test
    void theFingerprintIsStableAcrossRuns() {
        // FNV-1a of the canonical text: a constant, so two JVMs (or two builds) agree.
        assertThat(SerializationConfig.defaults().fingerprint())
                .isEqualTo(SerializationConfig.defaults().fingerprint())
                .isNotZero();
    }

    @Test
    void mistakesInTheBuilderAreRefused() {
        assertThatThrownBy(() -> SerializationConfig.builder().register(A.class, A.class))
                .hasMessageContaining("registered twice");
        assertThatThrownBy(() -> SerializationConfig.builder().allowPackage("")).hasMessageContaining("every class");
        assertThatThrownBy(() -> SerializationConfig.builder().register(int.class))
                .hasMessageContaining("always allowed");
    }

    @Test
    void theRefusalNamesTheClassAndHowToAllowIt() {
        ClassNotAllowedException e = new ClassNotAllowedException("com.acme.Outer$Inner");
        assertThat(e.className()).isEqualTo("com.acme.Outer$Inner");
        assertThat(e.getMessage())
                .isEqualTo("class com.acme.Outer$Inner is not allowed to cross groups: add"
                        + " DFF.register(com.acme.Outer.Inner.class) to the program before it runs, in every group in"
                        + " the same order (or DFF.allowPackage(\"com.acme\") for its whole package)");
    }

    @Test
    void theProgramsPackagesAreAllowedExactlyAndLeaveTheFingerprintAlone() {
        SerializationConfig plain = SerializationConfig.defaults();
        SerializationConfig program = plain.allowingProgramPackages(java.util.List.of("com.acme.app", ""));

        assertThat(program.allowsClassName("com.acme.app.Reading")).isTrue();
        assertThat(program.allowsClassName("[Lcom.acme.app.Reading;")).isTrue();
        assertThat(program.allowsClassName("TopLevel"))
                .as("the unnamed package")
                .isTrue();
        assertThat(program.allowsClassName("com.acme.app.internal.Thing"))
                .as("a sub-package")
                .isFalse();
        assertThat(program.allowsClassName("com.acme.Secret")).isFalse();
        assertThat(plain.allowsClassName("com.acme.app.Reading")).isFalse();
        assertThat(program.fingerprint()).isEqualTo(plain.fingerprint());
        // JDK value types and collections stay allowed, and nothing else of the JDK is.
        assertThat(program.allowsClassName("java.time.Instant")).isTrue();
        assertThat(program.allowsClassName("[Ljava.lang.Long;")).isTrue();
        assertThat(program.allowsClassName("java.lang.ProcessBuilder")).isFalse();
    }
}
