package org.fastflowj.bench.figures;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.fastflowj.bench.BusyWork;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs existing JMH benchmarks of ff-bench with the scale's iterations and returns every measured
 * iteration: one fork (none at {@link Scale#SMOKE}, where the benchmarks run in this JVM), the busy-work
 * calibration of this JVM handed to the fork so that every variant spins the same steps per task.
 */
final class Jmh {
    /** One measured iteration of one benchmark method with its parameters. */
    record Score(String method, Map<String, String> params, int iteration, double score, String unit) {}

    private Jmh() {}

    static List<Score> run(Scale scale, String includeRegex, Map<String, String[]> params) throws Exception {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(includeRegex)
                .forks(scale == Scale.SMOKE ? 0 : 1)
                .warmupIterations(scale.jmhWarmups())
                .warmupTime(TimeValue.milliseconds(scale.jmhIterationMillis()))
                .measurementIterations(scale.repetitions)
                .measurementTime(TimeValue.milliseconds(scale.jmhIterationMillis()))
                .shouldFailOnError(true)
                .verbosity(scale == Scale.SMOKE ? VerboseMode.SILENT : VerboseMode.NORMAL)
                .jvmArgsAppend("-D" + BusyWork.ITERS_PER_MICRO_PROPERTY + "=" + BusyWork.iterationsPerMicro());
        params.forEach(options::param);
        // JMH refuses to start while another JMH run holds /tmp/jmh.lock. On a machine shared with other builds
        // that is the normal case, and every figure is a ratio measured within one run, so go ahead.
        System.setProperty("jmh.ignoreLock", "true");
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("JMH ran no benchmark matching " + includeRegex);
        }
        List<Score> scores = new ArrayList<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            Map<String, String> values = new java.util.TreeMap<>();
            for (String key : result.getParams().getParamsKeys()) {
                values.put(key, result.getParams().getParam(key));
            }
            int iteration = 0;
            for (BenchmarkResult fork : result.getBenchmarkResults()) {
                for (IterationResult it : fork.getIterationResults()) {
                    scores.add(new Score(
                            method,
                            values,
                            iteration++,
                            it.getPrimaryResult().getScore(),
                            it.getPrimaryResult().getScoreUnit()));
                }
            }
        }
        return scores;
    }
}
