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
                .isEqualTo("class com.acme.Outer$Inner is not allowed to cross groups: register it"
                        + " (SerializationConfig.builder().register(com.acme.Outer.Inner.class)) or allow its package"
                        + " (allowPackage(\"com.acme\"))");
    }
}
