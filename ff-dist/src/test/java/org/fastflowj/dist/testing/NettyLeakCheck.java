package org.fastflowj.dist.testing;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reported a leaked buffer by its end ({@link NettyLeaks}). Registered for
 * every ff-dist test by JUnit's extension auto-detection (the surefire configuration turns it on), so it
 * is loaded, and installs the recording detectors, before any test touches a buffer.
 */
public final class NettyLeakCheck implements AfterAllCallback {
    static {
        NettyLeaks.install();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<String> leaks = NettyLeaks.collect();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer(s) leaked by the end of "
                    + context.getDisplayName() + " (or a test class run before it in this JVM):\n"
                    + String.join("\n\n", leaks));
        }
    }
}
