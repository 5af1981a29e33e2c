package org.fastflowj.bench.figures;

import java.util.List;

/**
 * How big each figure's runs are: {@link #SMOKE} checks in seconds that every figure still runs (the unit
 * test), {@link #SHORT} draws every figure in about ten minutes on a loaded 2-core machine, {@link #PAPER}
 * uses the papers' sizes.
 */
public enum Scale {
    SMOKE(
            1,
            List.of(8, 1024),
            List.of(1, 32),
            256 * 1024L,
            List.of(1024, 65536),
            List.of(1, 2),
            1 << 20,
            List.of(0.1, 1.0),
            40,
            List.of(1, 2),
            2_000,
            List.of(1.0, 10.0),
            0.2),
    SHORT(
            3,
            List.of(8, 512, 4096, 65536),
            List.of(1, 8, 32, 128),
            32L << 20,
            List.of(1024, 65536, 1 << 20, 4 << 20),
            List.of(1, 2, 3),
            64 << 20,
            List.of(0.1, 0.5, 1.0, 2.0, 5.0),
            4_000,
            List.of(1, 2, 4),
            100_000,
            List.of(0.5, 5.0, 50.0),
            1),
    PAPER(
            5,
            List.of(8, 32, 128, 512, 1024, 4096, 16384, 65536),
            List.of(1, 8, 32, 128),
            512L << 20,
            List.of(1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20),
            List.of(1, 2, 3, 4, 6, 8),
            1 << 30,
            List.of(0.1, 0.5, 1.0, 2.0, 5.0),
            20_000,
            List.of(1, 2, 4, 8, 16),
            1_000_000,
            List.of(0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0),
            5);

    /** Repetitions of every measured point (JMH: measurement iterations). */
    final int repetitions;
    /** Fig. 9 top left: message sizes and batch sizes. */
    final List<Integer> messageBytes;

    final List<Integer> batchSizes;
    /** Bytes moved per group-to-group transfer (the message count follows from the size). */
    final long bytesPerTransfer;
    /** Fig. 9 top right: Kryo against the custom serializer. */
    final List<Integer> serializerBytes;
    /** Fig. 9 bottom right: sender groups of the all-to-all (two receiver groups), and the file it moves. */
    final List<Integer> a2aSenders;

    final int a2aFileBytes;
    /** Fig. 10: task grains in ms, and the tasks per run at 0.5 ms (fewer at coarser grains: the same work). */
    final List<Double> masterWorkerGrainsMs;

    final int masterWorkerTasks;
    /** Fig. 11: source groups, and the lines of the generated tweet file. */
    final List<Integer> wordCountSources;

    final int wordCountLines;
    /** The 2009 farm figure: grains in µs. */
    final List<Double> farmGrainsMicros;
    /** Idle CPU: seconds the graph stays idle per strategy. */
    final double idleSeconds;

    Scale(
            int repetitions,
            List<Integer> messageBytes,
            List<Integer> batchSizes,
            long bytesPerTransfer,
            List<Integer> serializerBytes,
            List<Integer> a2aSenders,
            int a2aFileBytes,
            List<Double> masterWorkerGrainsMs,
            int masterWorkerTasks,
            List<Integer> wordCountSources,
            int wordCountLines,
            List<Double> farmGrainsMicros,
            double idleSeconds) {
        this.repetitions = repetitions;
        this.messageBytes = messageBytes;
        this.batchSizes = batchSizes;
        this.bytesPerTransfer = bytesPerTransfer;
        this.serializerBytes = serializerBytes;
        this.a2aSenders = a2aSenders;
        this.a2aFileBytes = a2aFileBytes;
        this.masterWorkerGrainsMs = masterWorkerGrainsMs;
        this.masterWorkerTasks = masterWorkerTasks;
        this.wordCountSources = wordCountSources;
        this.wordCountLines = wordCountLines;
        this.farmGrainsMicros = farmGrainsMicros;
        this.idleSeconds = idleSeconds;
    }

    /** Messages of {@code bytes} per transfer: the byte budget, kept between a floor and a ceiling of counts. */
    int messagesFor(int bytes) {
        long floor = this == SMOKE ? 50 : 500;
        long ceiling = this == SMOKE ? 2_000 : this == SHORT ? 200_000 : 2_000_000;
        return (int) Math.max(floor, Math.min(ceiling, bytesPerTransfer / bytes));
    }

    /** JMH measurement: iteration time in ms (warm-up takes as many iterations of the same length). */
    int jmhIterationMillis() {
        return this == SMOKE ? 100 : this == SHORT ? 500 : 1000;
    }

    /** Flink runs per parallelism: a child JVM of tens of seconds each on a loaded machine, so one in SHORT. */
    int flinkRepetitions() {
        return this == PAPER ? repetitions : 1;
    }

    int jmhWarmups() {
        return this == SMOKE ? 0 : this == SHORT ? 2 : 3;
    }
}
