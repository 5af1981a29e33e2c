package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.dist.StatsLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A group's reports for the launcher: progress while it runs, its final statistics at its end. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StatsReporterTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream(); // synchronized
    private final StatsReporter reporter = new StatsReporter(
            new PrintStream(printed, true, StandardCharsets.UTF_8),
            GraphCompiler.compile(
                    new Pipeline(new Programs.Source(1).named("numbers"), new Programs.Sink(new Programs.Trace()))));

    private static Execution endlessRun() {
        Pipeline endless = new Pipeline(new Programs.Source(Long.MAX_VALUE), new Programs.Sink(new Programs.Trace()));
        return Executor.start(GraphCompiler.compile(endless), RunOptions.defaults());
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldReportProgressWhileTheRunGoesOnAndTheFinalCountsAtItsEnd() throws Exception {
        Execution run = endlessRun();
        reporter.started(run);
        // the first report comes at once; later ones show the items moving
        while (lines().stream()
                .filter(l -> l.startsWith(StatsLine.PROGRESS))
                .flatMap(l -> StatsLine.parse(l).stats().nodes().stream())
                .noneMatch(n -> n.itemsIn() > 0)) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        run.cancel();
        try {
            run.await();
        } catch (CancellationException expected) {
            // cancelled, as asked
        }

        reporter.ended();

        List<String> finals =
                lines().stream().filter(l -> l.startsWith(StatsLine.FINAL)).toList();
        assertThat(finals).hasSize(1);
        StatsLine.Report last = StatsLine.parse(finals.get(0));
        assertThat(last.last()).isTrue();
        assertThat(last.stats().nodes().stream().map(NodeStats::name))
                .containsExactlyElementsOf(
                        run.stats().nodes().stream().map(NodeStats::name).toList());
        assertThat(last.stats().nodes()).isEqualTo(run.stats().nodes());
        assertThat(last.stats().queues()).as("the channel's fill travels too").hasSize(1);
        assertThat(lines().get(0))
                .as("the program's graph, once, before any statistics")
                .startsWith(StatsLine.GRAPH + " {\"vertices\":[{\"name\":\"numbers\"");
        assertThat(lines().stream().filter(l -> l.startsWith(StatsLine.GRAPH))).hasSize(1);
    }

    @Test
    void shouldReportTheEndOfARunThatEndedBeforeItsStartReturned() throws Exception {
        Execution run = endlessRun();
        CompletableFuture<Void> end = CompletableFuture.runAsync(reporter::ended);
        run.cancel();
        reporter.started(run);
        end.get(10, TimeUnit.SECONDS);

        assertThat(lines().stream().filter(l -> !l.startsWith(StatsLine.GRAPH)))
                .anySatisfy(l -> assertThat(StatsLine.parse(l).last()).isTrue());
    }
}
