package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.apps.ProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs in one JVM, each with settings of its own ({@link DFF.Settings#run}): every group of two programs at
 * once, whose configs batch differently, started through {@code runAndWaitEnd} as a program starts them.
 * Each run's links show the batching its own config asked for.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PerRunSettingsTest {
    private static final int ITEMS = 20_000;
    private static final String ONE_PER_FRAME = "\"batchSize\": 1";
    private static final String BATCHED = "\"batchSize\": 256, \"flushDelayMicros\": 50000";

    @TempDir
    Path dir;

    @AfterEach
    void reset() {
        DFF.reset();
    }

    /** One program: numbers from group {@code from} to a summing sink in group {@code to}. */
    static final class Program {
        final AtomicLong sum = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final Pipeline pipe;

        Program(String from, String to) {
            Node<Void, Long> source =
                    Node.source(() -> LongStream.range(0, ITEMS).boxed().iterator());
            Node<Long, Void> sink = Node.sink(x -> {
                sum.addAndGet(x);
                count.incrementAndGet();
            });
            source.createGroup(from);
            sink.createGroup(to);
            pipe = new Pipeline(source, sink);
        }

        /** What the sending group's link carried. */
        LinkStats sent() {
            return pipe.stats().links().stream()
                    .filter(l -> l.messages() > 0)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(
                            "no link carried anything: " + pipe.stats().links()));
        }
    }

    private Path config(String name, List<String> groups, String topLevel) throws Exception {
        return Files.writeString(dir.resolve(name), ProcessCluster.configJson(groups, topLevel));
    }

    /** Runs group {@code group} of a new {@link Program} on a thread of {@code pool}, with settings of its own. */
    private static Future<Program> runGroup(ExecutorService pool, Path config, String group, String from, String to) {
        return pool.submit(() -> {
            // tag::settings[]
            DFF.Settings settings = DFF.Settings.fromArgs("--DFF_GName=" + group, "--DFF_Config=" + config);
            Program program = new Program(from, to);
            settings.run(() -> program.pipe.runAndWaitEnd()); // the runs this thread starts meanwhile
            // end::settings[]
            return program;
        });
    }

    @Test
    void twoProgramsWithTheirOwnConfigsRunAtOnceEachGroupWithItsOwnSettings() throws Exception {
        Path oneByOne = config("one-by-one.json", List.of("A", "B"), ONE_PER_FRAME);
        Path batched = config("batched.json", List.of("X", "Y"), BATCHED);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Program>> runs = new ArrayList<>();
            runs.add(runGroup(pool, oneByOne, "A", "A", "B"));
            runs.add(runGroup(pool, oneByOne, "B", "A", "B"));
            runs.add(runGroup(pool, batched, "X", "X", "Y"));
            runs.add(runGroup(pool, batched, "Y", "X", "Y"));
            List<Program> done = new ArrayList<>();
            for (Future<Program> run : runs) {
                done.add(run.get(75, TimeUnit.SECONDS));
            }

            assertThat(done.get(1).count.get()).as("B's sink").isEqualTo(ITEMS);
            assertThat(done.get(1).sum.get()).isEqualTo((long) ITEMS * (ITEMS - 1) / 2);
            assertThat(done.get(3).count.get()).as("Y's sink").isEqualTo(ITEMS);
            assertThat(done.get(3).sum.get()).isEqualTo((long) ITEMS * (ITEMS - 1) / 2);

            LinkStats a = done.get(0).sent();
            assertThat(a.link()).isEqualTo("A -> B");
            assertThat(a.batches()).as("batchSize 1: one message a frame").isEqualTo(a.messages());
            LinkStats x = done.get(2).sent();
            assertThat(x.link()).isEqualTo("X -> Y");
            assertThat(x.batches())
                    .as("batchSize 256: many messages a frame (%s)", x)
                    .isLessThan(x.messages() / 4);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(15, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(DFF.group()).as("the process's settings stay as they were").isEmpty();
    }

    @Test
    void oneThreadRunsWithOneSettingsThenWithAnother() throws Exception {
        Path oneByOne = config("one-by-one.json", List.of("A", "B"), ONE_PER_FRAME);
        Path batched = config("batched.json", List.of("A", "B"), BATCHED);
        ExecutorService sinks = Executors.newSingleThreadExecutor();
        try {
            for (Path config : List.of(oneByOne, batched)) {
                Future<Program> sink = runGroup(sinks, config, "B", "A", "B");
                Program source = new Program("A", "B");
                DFF.Settings.fromArgs("--DFF_GName=A", "--DFF_Config=" + config).run(() -> source.pipe.runAndWaitEnd());
                assertThat(sink.get(60, TimeUnit.SECONDS).count.get()).isEqualTo(ITEMS);

                LinkStats sent = source.sent();
                if (config.equals(oneByOne)) {
                    assertThat(sent.batches()).as("%s", sent).isEqualTo(sent.messages());
                } else {
                    assertThat(sent.batches()).as("%s", sent).isLessThan(sent.messages() / 4);
                }
            }
        } finally {
            sinks.shutdownNow();
            assertThat(sinks.awaitTermination(15, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A program written against the static API: {@code DFF.init}, {@code DFF.group()}, {@code runAndWaitEnd}. */
    static final class Main {
        static void main(String[] args, PrintStream out) {
            args = DFF.init(args);
            Program program = new Program("A", "B");
            program.pipe.runAndWaitEnd();
            if (DFF.group().map("B"::equals).orElse(true)) {
                out.println(args[0] + " " + program.sum.get());
            }
        }
    }

    @Test
    void theStaticApiActsOnTheSettingsBoundToItsThread() throws Exception {
        Path config = config("app.json", List.of("A", "B"), ONE_PER_FRAME);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> groups = new ArrayList<>();
            for (String group : List.of("A", "B")) {
                String[] args = {"group-" + group, "--DFF_GName=" + group, "--DFF_Config=" + config};
                groups.add(pool.submit(() -> {
                    // tag::static[]
                    DFF.Settings.none().run(() -> Main.main(args, out)); // its DFF.init acts on these
                    // end::static[]
                }));
            }
            for (Future<?> group : groups) {
                group.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(15, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .as("only B prints, the sum of its run")
                .isEqualTo("group-B " + (long) ITEMS * (ITEMS - 1) / 2 + System.lineSeparator());
        assertThat(DFF.group())
                .as("init on a bound thread leaves the process's settings")
                .isEmpty();
        assertThat(System.getProperty(DFF.GROUP_PROPERTY)).isNull();
    }
}
