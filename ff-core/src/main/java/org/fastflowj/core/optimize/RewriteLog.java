package org.fastflowj.core.optimize;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One INFO line per rewrite, kept for {@link Optimizer.Plan#rewrites()} too. */
final class RewriteLog {
    /**
     * Made on first use: a run that logs nothing never starts the logging backend, which costs a fresh
     * JVM about 45 ms.
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(Optimizer.class);
    }

    private final List<String> lines = new ArrayList<>();

    void say(String format, Object... args) {
        String line = String.format(format, args);
        lines.add(line);
        Log.LOG.info("optimizer: {}", line);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }
}
