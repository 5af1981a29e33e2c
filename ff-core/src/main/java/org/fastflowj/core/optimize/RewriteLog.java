package org.fastflowj.core.optimize;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One INFO line per rewrite, kept for {@link Optimizer.Plan#rewrites()} too. */
final class RewriteLog {
    private static final Logger LOG = LoggerFactory.getLogger(Optimizer.class);

    private final List<String> lines = new ArrayList<>();

    void say(String format, Object... args) {
        String line = String.format(format, args);
        lines.add(line);
        LOG.info("optimizer: {}", line);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }
}
