/**
 * JMH benchmarks of FastFlow-J. Each benchmark class measures a FastFlow-J shape next to a baseline in
 * the same run ({@link org.fastflowj.bench.PipelineThroughput}: a raw JCTools hand-off;
 * {@link org.fastflowj.bench.FarmSpeedup}: a sequential loop and an {@code ExecutorService}), and only the
 * ratio between them is reported, because absolute figures drift on shared machines.
 *
 * <p>Run them through {@code ff-bench/run-benchmarks.sh} (build, calibration, JMH, ratio tables); they
 * never run in {@code mvn test}. Shared JMH settings live in {@link org.fastflowj.bench.AbstractBenchmark};
 * see docs/benchmarks.md for what each benchmark measures and how to read the ratios.
 */
package org.fastflowj.bench;
