package org.fastflowj.core.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that logs nothing does not start the logging backend: in a fresh JVM that start costs about as
 * much as the rest of a small run (a data-parallel loop over a few hundred rows finished later than the
 * sequential loop because of it).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class QuietStartTest {
    @TempDir
    Path dir;

    /** Runs a pipeline and a ParallelFor, neither of which has anything to log, and prints their results. */
    public static final class QuietRuns {
        public static void main(String[] args) {
            AtomicLong sum = new AtomicLong();
            new Pipeline(
                            Node.source(List.of(1, 2, 3)),
                            Node.<Integer, Integer>of(x -> x * 10),
                            Node.<Integer>sink(sum::addAndGet))
                    .runAndWaitEnd(RunOptions.defaults());
            try (ParallelFor pf = new ParallelFor(2)) {
                System.out.println("sum " + sum.get() + " reduce "
                        + pf.reduceLong(0, 100, 1, 0, 0L, (acc, i) -> acc + i, Long::sum));
            }
        }
    }

    @Test
    void shouldRunAPipelineAndAParallelForWithoutLoadingTheLoggingApi() throws Exception {
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-Xlog:class+load=info:stdout",
                        "-cp",
                        System.getProperty("java.class.path"),
                        QuietRuns.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            assertThat(child.waitFor(60, TimeUnit.SECONDS))
                    .as("the child ended")
                    .isTrue();
            String output = Files.readString(log);
            assertThat(child.exitValue()).as(output).isZero();
            assertThat(output).contains("sum 60 reduce 4950");
            List<String> lines = output.lines().toList();
            int first = lines.indexOf(lines.stream()
                    .filter(l -> l.contains("org.slf4j.") || l.contains("ch.qos.logback."))
                    .findFirst()
                    .orElse(null));
            assertThat(first)
                    .as(
                            "a logging class loaded by a run that logged nothing, after:\n%s",
                            first < 0 ? "" : String.join("\n", lines.subList(Math.max(0, first - 12), first + 1)))
                    .isNegative();
            assertThat(output).as("the runtime was loaded").contains("org.fastflowj.core.runtime.control.RunControl ");
        } finally {
            child.destroyForcibly();
        }
    }
}
