package org.fastflowj.examples;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The examples' logging, set up in code (logback finds it through {@code META-INF/services}): every line
 * on stderr, so a program's results on stdout stay clean, and the third column is the process's group
 * ({@code DFF.init} sets the system property {@code fastflowj.group}), {@code -} when the whole program
 * runs here. The root level is {@code fastflowj.log.level} (a system property or an environment
 * variable), INFO by default.
 *
 * <p>In code rather than in a {@code logback.xml} because logback reads its XML through a SAX parser and
 * a model of some 400 classes, which every group would load and run on the way to its first connection
 * (docs/benchmarks.md, "Time to a first result", shows that time).
 *
 * <p>A file of the user's wins: {@code -Dlogback.configurationFile=FILE}, or a {@code logback-test.xml}
 * or {@code logback.xml} on the class path; then logback reads that file.
 *
 * <p>Threading: logback calls it once, on the thread that first asks for a logger.
 */
public final class ExamplesLogging extends ContextAwareBase implements Configurator {
    /** The line format: time, level, group, thread, logger, message. */
    static final String PATTERN =
            "%d{HH:mm:ss.SSS} %-5level %replace(%property{fastflowj.group}){'^null$', '-'} [%thread] %logger{36} - %msg%n";

    static final String LEVEL_PROPERTY = "fastflowj.log.level";

    /** Logback makes it (a public no-argument constructor, for {@link java.util.ServiceLoader}). */
    public ExamplesLogging() {}

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (userConfigured()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY; // logback's own configurator reads the user's file
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(rootLevel());
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static boolean userConfigured() {
        ClassLoader loader = ExamplesLogging.class.getClassLoader();
        return System.getProperty("logback.configurationFile") != null
                || loader.getResource("logback-test.xml") != null
                || loader.getResource("logback.xml") != null;
    }

    /** As logback reads a level attribute: a name in any case, DEBUG for one it does not know. */
    static Level rootLevel() {
        String level = System.getProperty(LEVEL_PROPERTY);
        if (level == null) {
            level = System.getenv(LEVEL_PROPERTY);
        }
        return level == null ? Level.INFO : Level.toLevel(level.trim(), Level.DEBUG);
    }
}
