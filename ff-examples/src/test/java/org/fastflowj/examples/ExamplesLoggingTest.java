package org.fastflowj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The examples' logging set up in code: stderr, the group's column, the level property; a user's file wins. */
@Timeout(30)
class ExamplesLoggingTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty(ExamplesLogging.LEVEL_PROPERTY);
        System.clearProperty("logback.configurationFile");
    }

    @Test
    void shouldLogOnStderrWithTheGroupsColumnAtInfo() {
        LoggerContext context = new LoggerContext();

        ExecutionStatus status = new ExamplesLogging().configure(context);

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        Appender<?> appender = root.getAppender("STDERR");
        assertThat(appender).isInstanceOf(ConsoleAppender.class);
        ConsoleAppender<?> console = (ConsoleAppender<?>) appender;
        assertThat(console.getTarget()).isEqualTo("System.err");
        assertThat(console.isStarted()).isTrue();
        assertThat(((PatternLayoutEncoder) console.getEncoder()).getPattern())
                .contains("%property{fastflowj.group}")
                .startsWith("%d{HH:mm:ss.SSS} %-5level ");
    }

    @Test
    void shouldTakeTheRootLevelFromItsProperty() {
        System.setProperty(ExamplesLogging.LEVEL_PROPERTY, "debug");
        LoggerContext context = new LoggerContext();

        new ExamplesLogging().configure(context);

        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
        System.setProperty(ExamplesLogging.LEVEL_PROPERTY, "WARN");
        assertThat(ExamplesLogging.rootLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void shouldLeaveAFileTheUserNamesToLogback() {
        System.setProperty("logback.configurationFile", "my-logback.xml");
        LoggerContext context = new LoggerContext();

        ExecutionStatus status = new ExamplesLogging().configure(context);

        assertThat(status).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"))
                .isNull();
    }
}
