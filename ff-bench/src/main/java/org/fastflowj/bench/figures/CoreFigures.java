package org.fastflowj.bench.figures;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.bench.IdleCost;
import org.fastflowj.core.WaitStrategy;

/**
 * The one-process figures, from ff-bench's existing JMH benchmarks: the 2009 report's farm against the
 * JDK's executors ({@code FarmSpeedup}), the 2-stage pipeline against raw JCTools, {@code
 * ArrayBlockingQueue} and the LMAX Disruptor ({@code PipelineThroughput}), idle CPU per wait strategy
 * ({@link IdleCost}), and DF-Threads' blocked matrix product ({@code MatMulSpeedup}).
 */
final class CoreFigures {
    private CoreFigures() {}

    static final Figure FARM = new Figure() {
        @Override
        public String name() {
            return "farm-2009";
        }

        @Override
        public void run(Context c) throws Exception {
            String[] grains =
                    c.scale().farmGrainsMicros.stream().map(String::valueOf).toArray(String[]::new);
            List<Jmh.Score> scores = Jmh.run(
                    c.scale(),
                    "org\\.fastflowj\\.bench\\.FarmSpeedup\\.(farm|accelerator|sequential|executor|forkJoin|parallelStream|splitBound|rawFarm|rawOnDemandFarm)$",
                    Map.of("grainMicros", grains, "policy", new String[] {"ROUND_ROBIN", "ON_DEMAND"}));
            for (Jmh.Score s : scores) {
                String series =
                        switch (s.method()) {
                            case "farm" -> "FF-J farm "
                                    + s.params().get("policy").toLowerCase().replace('_', '-');
                            case "accelerator" -> "FF-J farm accelerator "
                                    + s.params().get("policy").toLowerCase().replace('_', '-');
                            case "splitBound" -> "two-thread bound (no hand-off)";
                            case "rawFarm" -> "round-robin farm shape without a run-time (bound)";
                            case "rawOnDemandFarm" -> "on-demand farm shape without a run-time (bound)";
                            default -> s.method();
                        };
                c.log()
                        .point(
                                name(),
                                series,
                                Double.parseDouble(s.params().get("grainMicros")),
                                s.iteration(),
                                s.score(),
                                s.unit());
            }
            // Speed-up = sequential time / variant time, from the medians of the same run.
            Map<String, TreeMap<Double, Double>> times = Plots.medians(c.log().points(name()));
            TreeMap<Double, Double> sequential = times.get("sequential");
            Map<String, TreeMap<Double, Double>> speedUps = new LinkedHashMap<>();
            times.forEach((series, byGrain) -> {
                if (!series.equals("sequential")) {
                    TreeMap<Double, Double> s = new TreeMap<>();
                    byGrain.forEach((grain, ms) -> s.put(grain, sequential.get(grain) / ms));
                    speedUps.put(series, s);
                    s.forEach((grain, v) ->
                            c.log().point(name() + "-speedup", series, grain, 0, v, "sequential / variant"));
                }
            });
            c.plots()
                    .lines(
                            name(),
                            "2009 farm figure: speed-up on 2 workers, same run",
                            "grain (µs)",
                            "speed-up (sequential time / time)",
                            true,
                            false,
                            speedUps,
                            Map.of("ideal (" + Runtime.getRuntime().availableProcessors() + " cores)", (double)
                                    Math.min(2, Runtime.getRuntime().availableProcessors())));
        }
    };

    static final Figure PIPELINE = new Figure() {
        @Override
        public String name() {
            return "pipeline-2stage";
        }

        @Override
        public void run(Context c) throws Exception {
            // The smoke run leaves out the slowest hand-off (ArrayBlockingQueue: seconds per invocation of 10^7
            // items) and runs one strategy; its bodies are checked by BenchmarkBodiesTest.
            boolean smoke = c.scale() == Scale.SMOKE;
            List<Jmh.Score> scores = Jmh.run(
                    c.scale(),
                    "org\\.fastflowj\\.bench\\.PipelineThroughput\\.(pipeline|rawJctools|disruptor"
                            + (smoke ? "" : "|arrayBlockingQueue") + ")$",
                    Map.of(
                            "strategy",
                            smoke ? new String[] {"BACKOFF"} : new String[] {"BUSY_SPIN", "BACKOFF", "BLOCKING"}));
            List<String> strategies = List.of("BUSY_SPIN", "BACKOFF", "BLOCKING");
            Map<String, Map<String, Double>> bars = new LinkedHashMap<>();
            for (Jmh.Score s : scores) {
                String strategy = s.params().get("strategy");
                String series =
                        switch (s.method()) {
                            case "pipeline" -> "FF-J pipeline";
                            case "disruptor" -> "LMAX Disruptor 1P1C";
                            case "rawJctools" -> "raw JCTools SPSC";
                            default -> "ArrayBlockingQueue";
                        };
                double x = strategy == null ? -1 : strategies.indexOf(strategy);
                c.log()
                        .point(
                                name(),
                                series + (strategy == null ? "" : " " + strategy),
                                x,
                                s.iteration(),
                                s.score(),
                                s.unit());
            }
            Plots.medians(c.log().points(name())).forEach((series, byX) -> {
                double median = byX.values().iterator().next();
                String variant =
                        strategies.stream().filter(series::endsWith).findFirst().orElse(null);
                String label = variant == null ? series : series.substring(0, series.length() - variant.length() - 1);
                for (String strategy : strategies) {
                    if (variant == null || variant.equals(strategy)) {
                        bars.computeIfAbsent(label, l -> new LinkedHashMap<>()).put(strategy, median);
                    }
                }
            });
            c.log()
                    .note(
                            name(),
                            "the raw JCTools and ArrayBlockingQueue hand-offs have no wait strategy: one bar drawn"
                                    + " under each strategy");
            c.plots().bars(name(), "2-stage pipeline of empty stages, same run", "items/s", bars);
        }
    };

    static final Figure IDLE = new Figure() {
        @Override
        public String name() {
            return "idle-cpu";
        }

        @Override
        public void run(Context c) {
            Map<String, Map<String, Double>> bars = new LinkedHashMap<>();
            // The smoke run leaves out BUSY_SPIN: six spinning threads on a loaded machine take seconds to drain.
            List<WaitStrategy> strategies = c.scale() == Scale.SMOKE
                    ? List.of(WaitStrategy.BACKOFF, WaitStrategy.BLOCKING)
                    : List.of(WaitStrategy.values());
            for (WaitStrategy strategy : strategies) {
                for (int rep = 0; rep < c.scale().repetitions; rep++) {
                    IdleCost.Result r = IdleCost.run(strategy, (long) (c.scale().idleSeconds * 1e9));
                    c.log()
                            .point(
                                    name(),
                                    strategy.name(),
                                    strategy.ordinal(),
                                    rep,
                                    100 * r.idleCpuShare(),
                                    "% of one core");
                }
            }
            Plots.medians(c.log().points(name())).forEach((strategy, byX) -> bars.computeIfAbsent(
                            "idle CPU, % of one core", k -> new LinkedHashMap<>())
                    .put(strategy, byX.values().iterator().next()));
            c.plots().bars(name(), "An idle 6-stage pipeline: CPU per wait strategy", "% of one core", bars);
        }
    };

    static final Figure MATMUL = new Figure() {
        @Override
        public String name() {
            return "dfthreads-matmul";
        }

        @Override
        public void run(Context c) throws Exception {
            List<Jmh.Score> scores = Jmh.run(
                    c.scale(),
                    "org\\.fastflowj\\.bench\\.MatMulSpeedup\\.(sequential|forkJoin|macroDataFlow)$",
                    Map.of("block", new String[] {"32"}, "n", new String[] {c.scale() == Scale.SMOKE ? "192" : "864"}));
            for (Jmh.Score s : scores) {
                c.log().point(name(), s.method(), 1, s.iteration(), s.score(), s.unit());
            }
            Map<String, TreeMap<Double, Double>> times = Plots.medians(c.log().points(name()));
            double sequential = times.get("sequential").firstEntry().getValue();
            Map<String, Map<String, Double>> bars = new LinkedHashMap<>();
            times.forEach((series, byX) -> bars.computeIfAbsent("speed-up over sequential", k -> new LinkedHashMap<>())
                    .put(
                            series.equals("macroDataFlow") ? "MacroDataFlow, one process" : series,
                            sequential / byX.firstEntry().getValue()));
            if (c.clusterPrefix() != null) {
                int n = c.scale() == Scale.SMOKE ? 192 : 864;
                for (int groups : new int[] {1, 2, 4}) {
                    double speedUp = matmulOnCluster(c, n, groups);
                    bars.computeIfAbsent("speed-up over sequential", k -> new LinkedHashMap<>())
                            .put(
                                    "MacroDataFlow, " + groups + (groups == 1 ? " group" : " groups") + " (cluster)",
                                    speedUp);
                }
            } else {
                c.log()
                        .note(
                                name(),
                                "no emulated cluster (cluster.sh up 2, then --cluster ffj): the rows of MacroDataFlow in"
                                        + " 1, 2, 4 groups skipped");
            }
            c.plots().bars(name(), "DF-Threads blocked matmul (block 32), same run", "speed-up", bars);
        }
    };

    private static final Pattern MATMUL_TIME = Pattern.compile("time: ([0-9.]+) s");
    private static final Pattern MATMUL_CHECK =
            Pattern.compile("check: equal, bit for bit, to the sequential blocked" + " product \\(([0-9.]+) s\\)");

    /**
     * {@code matmul --groups K --check} on the emulated cluster through ff-launcher, G0 (the scheduler and
     * its workers) on host 1 and the worker groups alternately on hosts 2 and 1; returns the sequential
     * product's time over the data-flow one, both measured by G0 in that run (the data-flow time includes
     * connecting the groups, as a user's run would). The product must equal the sequential one bit for bit.
     */
    private static double matmulOnCluster(Context c, int n, int groups) throws Exception {
        ClusterGroups cluster =
                new ClusterGroups(c.clusterPrefix(), c.scratch(), c.scale() == Scale.PAPER ? 1800 : 600);
        List<ClusterGroups.Placement> placements = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            placements.add(new ClusterGroups.Placement("G" + g, g == 0 ? 1 : 1 + g % 2));
        }
        int repetitions = c.scale() == Scale.PAPER ? c.scale().repetitions : 1;
        List<Double> speedUps = new ArrayList<>();
        for (int rep = 0; rep < repetitions; rep++) {
            String printed = cluster.run(
                    "dfthreads-matmul-" + groups,
                    placements,
                    "\"auto\"",
                    List.of(
                            "matmul",
                            "--n",
                            Integer.toString(n),
                            "--block",
                            "32",
                            "--groups",
                            Integer.toString(groups),
                            "--check"));
            Matcher time = MATMUL_TIME.matcher(printed);
            Matcher check = MATMUL_CHECK.matcher(printed);
            if (!time.find() || !check.find()) {
                throw new IllegalStateException("matmul in " + groups + " groups on the cluster: no time or no equal"
                        + " check; the launcher printed: " + printed);
            }
            double seconds = Double.parseDouble(time.group(1));
            double sequentialSeconds = Double.parseDouble(check.group(1));
            c.log()
                    .point(
                            "dfthreads-matmul-cluster",
                            "MacroDataFlow, sequential / data-flow time",
                            groups,
                            rep,
                            sequentialSeconds / seconds,
                            "speed-up");
            speedUps.add(sequentialSeconds / seconds);
        }
        speedUps.sort(null);
        return speedUps.get(speedUps.size() / 2);
    }
}
