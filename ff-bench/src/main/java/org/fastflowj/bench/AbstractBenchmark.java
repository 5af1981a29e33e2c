package org.fastflowj.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Forks, warm-up, measurement and JVM flags shared by every FastFlow-J benchmark, so that all of them
 * (and the baselines they are divided by) run under the same conditions. A subclass may override the
 * mode or time unit on its own class; iteration counts and JVM flags should stay here.
 *
 * <p>Budget: one fork, 3 × 1 s warm-up, 5 × 1 s measurement, i.e. about 10 s per benchmark and parameter
 * combination, so the whole suite stays within a few minutes on a 2-core machine. Pass {@code -f},
 * {@code -wi}, {@code -i} to the jar to change it for one run.
 *
 * <p>JVM flags: a fixed 1 GiB heap pre-touched at start, so that neither heap resizing nor page faults
 * land inside a measurement. They are {@code jvmArgs} (not {@code jvmArgsAppend}), so that
 * {@code -jvmArgsAppend} on the command line adds to them instead of replacing them; run-benchmarks.sh
 * passes the busy-work calibration that way.
 */
@Fork(
        value = 1,
        jvmArgs = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public abstract class AbstractBenchmark {}
