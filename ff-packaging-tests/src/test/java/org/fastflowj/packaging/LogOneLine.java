package org.fastflowj.packaging;

import org.slf4j.LoggerFactory;

/** Logs one line through SLF4J, started with a shipped jar on the class path: which provider prints it, and how. */
public final class LogOneLine {
    private LogOneLine() {}

    public static void main(String[] args) {
        LoggerFactory.getLogger(LogOneLine.class).info("one line");
    }
}
