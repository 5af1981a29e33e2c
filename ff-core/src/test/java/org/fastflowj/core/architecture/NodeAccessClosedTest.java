package org.fastflowj.core.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.runtime.LocalEngine;
import org.fastflowj.core.spi.NodeContext;
import org.fastflowj.core.spi.NodeLifecycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * User code can neither reach the engine's door into nodes' protected methods nor put its own in its
 * place, even on the class path, where module boundaries do not hold (ModulePathTest covers those).
 */
@Timeout(60)
class NodeAccessClosedTest {

    @Test
    void theDoorIsNotPublicAndNeitherIsItsInstall() throws Exception {
        Class<?> access = Class.forName("org.fastflowj.core.runtime.NodeAccess");
        assertThat(Modifier.isPublic(access.getModifiers())).isFalse();
        Method install = access.getDeclaredMethod("install", NodeLifecycle.class);
        assertThat(Modifier.isPublic(install.getModifiers())).isFalse();
        assertThatThrownBy(() -> install.invoke(null, new FakeLifecycle())).isInstanceOf(IllegalAccessException.class);
    }

    @Test
    void nodeHandsItsDoorToNoOneElse() {
        for (Method m : Node.class.getDeclaredMethods()) {
            boolean visible = Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers());
            assertThat(visible && NodeLifecycle.class.isAssignableFrom(m.getReturnType()))
                    .as("Node." + m.getName() + " must not hand out its lifecycle")
                    .isFalse();
        }
    }

    @Test
    void aLookalikeLifecycleIsRefusedAndTheRealOneKeepsWorking() {
        FakeLifecycle fake = new FakeLifecycle();
        assertThatThrownBy(() -> new LocalEngine().attach(fake))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(FakeLifecycle.class.getName())
                .hasMessageContaining("only Node's own");

        List<Integer> seen = new ArrayList<>();
        new Pipeline(
                        Node.source(List.of(1, 2, 3)),
                        Node.<Integer, Integer>of(x -> x * 10),
                        Node.<Integer>sink(seen::add))
                .runAndWaitEnd();
        assertThat(seen).containsExactly(10, 20, 30);
        assertThat(fake.calls).hasValue(0);
    }

    @Test
    void aUsersEngineProviderIsNeverTakenNorCreated() {
        List<Integer> seen = new ArrayList<>();
        new Pipeline(Node.source(List.of(4, 5)), Node.<Integer>sink(seen::add)).runAndWaitEnd();
        assertThat(seen).containsExactly(4, 5);
        // Registered next to ff-core's provider on this class path; looked at by type, never instantiated.
        assertThat(HijackingEngine.CREATED).hasValue(0);
    }

    /** What a user would install to intercept every node's svc. */
    private static final class FakeLifecycle implements NodeLifecycle<Node<?, ?>> {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void bind(Node<?, ?> node, NodeContext context, int id) {
            calls.incrementAndGet();
        }

        @Override
        public void svcInit(Node<?, ?> node) {
            calls.incrementAndGet();
        }

        @Override
        public Object svc(Node<?, ?> node, Object input) {
            calls.incrementAndGet();
            return input;
        }

        @Override
        public void inputEnded(Node<?, ?> node, int channel, boolean last) {
            calls.incrementAndGet();
        }

        @Override
        public void svcEnd(Node<?, ?> node) {
            calls.incrementAndGet();
        }
    }
}
