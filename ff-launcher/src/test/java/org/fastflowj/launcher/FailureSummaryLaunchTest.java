package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.apps.LambdaItemApp;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's account of a failure says the innermost cause's own words, in full once. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailureSummaryLaunchTest {
    /** Part of ff-dist's refusal of an item holding a lambda, the cause every group's lines carry. */
    private static final String REFUSAL = "which cannot cross groups";

    @TempDir
    Path dir;

    @Test
    void shouldSayTheRefusalOfAnItemHoldingALambdaOnceAndInTheSummary() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\"groups\": [{\"name\": \"A\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort()
                        + "\"}, {\"name\": \"B\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort() + "\"}]}");
        Path logs = dir.resolve("logs");
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.add(LambdaItemApp.class.getName());
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of(
                        "run",
                        "-c",
                        config.toString(),
                        "--timeout",
                        "60s",
                        "--grace",
                        "2s",
                        "--log-dir",
                        logs.toString()),
                command));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            List<String> lines = result.err().lines().toList();
            String summary = "ff-launcher: group A failed with java.lang.IllegalArgumentException in node ff-send-B:"
                    + " cannot serialize an item of " + LambdaItemApp.Order.class.getName()
                    + " (field lazyCountry";
            assertThat(lines)
                    .as(result.toString())
                    .anySatisfy(l -> assertThat(l).startsWith(summary).contains("it holds a lambda", REFUSAL));
            // the groups' own lines say it once; each later line that carries it points back
            assertThat(lines.stream().filter(l -> !l.startsWith(summary)).filter(l -> l.contains(REFUSAL)))
                    .as(result.toString())
                    .hasSize(1);
            assertThat(result.err())
                    .as(result.toString())
                    .contains("[B] Exception in thread \"main\" org.fastflowj.core.NodeFailedException: node group A"
                            + " failed in abort: ")
                    .contains("(as above, from group A)");
            // every line is whole in the log files
            assertThat(Files.readString(logs.resolve("B.log"))).contains(REFUSAL);
        } finally {
            Launcher.killAll(result.pids());
        }
    }
}
