package org.fastflowj.dist.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The leak check that runs after every ff-dist test class sees a buffer dropped without release. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NettyLeakCheckTest {
    @Test
    void shouldRunEveryTestWithTheParanoidDetectorAndTheCheck() {
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
        assertThat(NettyLeaks.installed()).as("NettyLeakCheck auto-detected").isTrue();
    }

    @Test
    void shouldReportABufferDroppedWithoutReleaseNamingWhereItWasMade() {
        dropOneBufferUnreleased();

        List<String> leaks = NettyLeaks.collect();

        assertThat(leaks).anySatisfy(leak -> assertThat(leak)
                .startsWith("LEAK: ByteBuf.release() was not called")
                .contains("dropOneBufferUnreleased"));
        assertThat(NettyLeaks.collect()).isEmpty(); // reported once, and forgotten once collected
    }

    @Test
    void shouldFailTheTestClassThatEndsAfterALeak() {
        dropOneBufferUnreleased();
        ExtensionContext context = (ExtensionContext) Proxy.newProxyInstance(
                ExtensionContext.class.getClassLoader(),
                new Class<?>[] {ExtensionContext.class},
                (proxy, method, args) -> method.getName().equals("getDisplayName") ? "SomeTest" : null);

        assertThatThrownBy(() -> new NettyLeakCheck().afterAll(context))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("1 Netty buffer(s) leaked by the end of SomeTest")
                .hasMessageContaining("dropOneBufferUnreleased");
    }

    /** Its own frame, so no local variable of the test keeps the buffer reachable. */
    private static void dropOneBufferUnreleased() {
        ByteBufAllocator.DEFAULT.heapBuffer(8).writeLong(42);
    }
}
