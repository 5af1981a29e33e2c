package org.fastflowj.bench.figures;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The evidence suite's driver: runs every figure (or those named by {@code --only}) at one {@link Scale},
 * logs every repetition as JSON lines and draws each figure as PNG and SVG. A figure that fails is
 * reported and the others still run; the exit code is then 1.
 */
@Command(
        name = "figures",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Runs the FastFlow papers' figures on this machine, each with its in-run baseline; writes"
                + " JSON lines and PNG/SVG plots. See docs/benchmarks.md.")
public final class Figures implements Callable<Integer> {
    /** Every figure, in the order they run. */
    static final List<Figure> ALL = List.of(
            NetFigures.GROUP_TO_GROUP,
            NetFigures.SERIALIZERS,
            NetFigures.ALL_TO_ALL,
            GroupFigures.MASTER_WORKER,
            GroupFigures.WORD_COUNT,
            CoreFigures.FARM,
            CoreFigures.PIPELINE,
            CoreFigures.IDLE,
            CoreFigures.MATMUL,
            MpiFigures.DFTHREADS_MPI);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--scale",
            description = "SMOKE (seconds), SHORT (default, about ten minutes here) or PAPER (the papers' sizes).")
    Scale scale = Scale.SHORT;

    @Option(names = "--paper", description = "Same as --scale PAPER.")
    boolean paper;

    @Option(
            names = "--only",
            split = ",",
            paramLabel = "FIGURE",
            description = "Run only these figures: ${COMPLETION-CANDIDATES}")
    List<String> only = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Plots go here (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("docs", "benchmarks");

    @Option(names = "--results", paramLabel = "FILE", description = "JSON lines (default: DIR/figures.jsonl).")
    Path results;

    @Option(
            names = "--ceilings",
            paramLabel = "FILE",
            description = "iperf3 ceilings as printed by `cluster.sh ceiling` (JSON lines with link and mbps).")
    Path ceilings;

    @Option(
            names = "--cluster",
            paramLabel = "PREFIX",
            description = "The emulated cluster is up (`cluster.sh up 2`) with hosts PREFIX1, PREFIX2: Fig. 9 (group to"
                    + " group, all-to-all), Fig. 10 and Fig. 11 also run on its shaped link, their groups started by"
                    + " ff-launcher in those namespaces; with 4 hosts (`cluster.sh up 4`) and OpenMPI installed,"
                    + " DF-Threads' Fig. 3 against MPI too.")
    String cluster;

    @Option(names = "--scratch", paramLabel = "DIR", description = "Generated inputs (default: a temporary directory).")
    Path scratch;

    /** What the last {@link #call} measured; for the smoke test. */
    ResultLog lastLog;

    Plots lastPlots;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Figures())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Scale chosen = paper ? Scale.PAPER : scale;
        List<Figure> selected = select();
        Path scratchDir = scratch != null ? Files.createDirectories(scratch) : Files.createTempDirectory("ff-figures");
        Map<String, Double> ceilingsMbps = readCeilings();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", Instant.now().toString());
        run.put("scale", chosen.name());
        run.put("machine", cpuModel());
        run.put("cores", Runtime.getRuntime().availableProcessors());
        run.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        run.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        run.put("commit", commit());
        run.put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        ceilingsMbps.forEach((link, mbps) -> run.put("iperf3_" + link + "_mbps", mbps));
        Path resultsFile = results != null ? results : out.resolve("figures.jsonl");
        int failed = 0;
        lastPlots = new Plots(out);
        try (ResultLog log = new ResultLog(resultsFile, run)) {
            lastLog = log;
            Context context = new Context(chosen, log, lastPlots, scratchDir, ceilingsMbps, cluster);
            for (Figure figure : selected) {
                long start = System.nanoTime();
                System.out.printf("== %s (%s)%n", figure.name(), chosen);
                try {
                    figure.run(context);
                    System.out.printf(
                            Locale.ROOT, "== %s done in %.0f s%n", figure.name(), (System.nanoTime() - start) / 1e9);
                } catch (Exception | Error e) {
                    failed++;
                    log.note(figure.name(), "failed: " + e);
                    System.err.println("== " + figure.name() + " failed: " + e);
                    e.printStackTrace();
                }
            }
        }
        System.out.println("results: " + resultsFile + "; plots: " + out);
        return failed == 0 ? 0 : 1;
    }

    private List<Figure> select() {
        if (only.isEmpty()) {
            return ALL;
        }
        List<Figure> selected = new ArrayList<>();
        for (String name : only) {
            Figure figure = ALL.stream()
                    .filter(f -> f.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new CommandLine.ParameterException(
                            spec.commandLine(),
                            "--only: no figure '" + name + "'; the figures are "
                                    + ALL.stream().map(Figure::name).toList()));
            selected.add(figure);
        }
        return selected;
    }

    private static final Pattern CEILING = Pattern.compile("\"link\":\"(\\w+)\".*\"mbps\":([0-9.]+)");

    private Map<String, Double> readCeilings() throws IOException {
        Map<String, Double> mbps = new LinkedHashMap<>();
        if (ceilings == null) {
            return mbps;
        }
        for (String line : Files.readAllLines(ceilings, StandardCharsets.UTF_8)) {
            Matcher m = CEILING.matcher(line);
            if (m.find()) {
                mbps.put(m.group(1), Double.parseDouble(m.group(2)));
            } else if (!line.isBlank()) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--ceilings " + ceilings + ": not an iperf3 ceiling line: " + line);
            }
        }
        return mbps;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException e) {
            return System.getProperty("os.arch");
        }
    }

    /** The checkout's commit, short; {@code unknown} outside a git checkout. */
    public static String commit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            try {
                String text = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                return git.waitFor(10, TimeUnit.SECONDS) && git.exitValue() == 0 ? text : "unknown";
            } finally {
                git.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }
}
