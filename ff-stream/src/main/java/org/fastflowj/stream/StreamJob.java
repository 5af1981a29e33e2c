package org.fastflowj.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeCounter;
import org.fastflowj.core.NodeErrors;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.RunOptions;
import org.fastflowj.stream.internal.BlockCompiler;
import org.fastflowj.stream.internal.ErrorHandler;
import org.fastflowj.stream.internal.Exchange;
import org.fastflowj.stream.internal.RecordFailure;
import org.fastflowj.stream.internal.SideSink;
import org.fastflowj.stream.internal.Transform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A streaming job: sources, the operators on their streams, sinks. {@link #run()} compiles it onto
 * ff-core's blocks (one node per operator instance, forward neighbours of equal parallelism fused into
 * one thread, keyed streams as all-to-alls) and runs it to the end of its sources.
 *
 * <p>Stages given a group ({@link DataStream#group}) make the job a program of ff-dist groups, the others
 * in the home group {@code "main"}: started as one of them, {@link #run()} runs that group's part, its
 * sinks only write and commit where their operator runs, and {@link JobStats} counts that part.
 *
 * <pre>{@code
 * StreamJob job = StreamJob.named("clicks");
 * job.source(Sources.of(clicks))
 *    .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofSeconds(2)))
 *    .keyBy(Click::user)
 *    .window(Windows.tumbling(Duration.ofSeconds(10)))
 *    .aggregate(Aggregates.counting())
 *    .sink(Sinks.lines(output));
 * job.run();
 * }</pre>
 *
 * <p>Threading: build and run a job from one thread; a job runs once.
 */
public final class StreamJob {
    private static final Logger LOG = LoggerFactory.getLogger(StreamJob.class);

    private final String name;
    private final List<Transform> transforms = new ArrayList<>();
    private final List<Transform> sinks = new ArrayList<>();
    private final List<Source<?>> sources = new ArrayList<>();
    private final Map<Sink<?>, Boolean> allSinks = new IdentityHashMap<>();
    private final Map<Sink<?>, Transform> streamSinks = new IdentityHashMap<>();
    private final Map<Sink<?>, SideSink<?>> sideSinks = new IdentityHashMap<>();
    /** The side sinks by {@link SideSink#index}, which side records carry. */
    private final List<SideSink<?>> sideSinksByIndex = new ArrayList<>();

    private final Map<String, Integer> names = new HashMap<>();
    private volatile BuildingBlock running;
    private boolean ran;
    private Duration maxWatermarkDrift = DEFAULT_WATERMARK_DRIFT;

    /** The default of {@link #maxWatermarkDrift}. */
    public static final Duration DEFAULT_WATERMARK_DRIFT = Duration.ofSeconds(1);

    private StreamJob(String name) {
        this.name = name;
    }

    public static StreamJob named(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a job's name cannot be blank");
        }
        return new StreamJob(name);
    }

    public String name() {
        return name;
    }

    /**
     * Watermark alignment: how far in event time one input of an operator with several inputs (a union,
     * a join) may run ahead of the slowest before the operator stops reading it until the slowest catches
     * up ({@link #DEFAULT_WATERMARK_DRIFT} unless set; {@code null}: never). Without it a fast source's
     * records wait in the windows after the operator for the slow one's time to fire them, and fill the
     * heap. Results do not change: the operator's watermark is its inputs' minimum either way. An input
     * fed from another group is not held.
     */
    public StreamJob maxWatermarkDrift(Duration drift) {
        if (drift != null && drift.isNegative()) {
            throw new IllegalArgumentException(
                    "job '" + name + "': the watermark drift must not be negative: " + drift);
        }
        this.maxWatermarkDrift = drift;
        return this;
    }

    /** A stream of {@code source}'s records (parallelism 1 unless set). */
    public <T> DataStream<T> source(Source<T> source) {
        Transform t = Transform.source(Objects.requireNonNull(source, "source"));
        register(t);
        if (!sources.contains(source)) {
            sources.add(source);
        }
        return new DataStream<>(this, t, Exchange.FORWARD, false);
    }

    void register(Transform t) {
        int seen = names.merge(t.name(), 1, Integer::sum);
        if (seen > 1) {
            t.name(t.name() + "-" + seen);
        }
        transforms.add(t);
    }

    /** Registers a part of the operator registered next (a window's first stage), counted under its name. */
    void registerPart(Transform t) {
        transforms.add(t);
    }

    void addSink(Transform t, Sink<?> sink) {
        sinks.add(t);
        claim(sink);
        streamSinks.put(sink, t);
    }

    private void claim(Sink<?> sink) {
        if (allSinks.put(sink, Boolean.TRUE) != null && !sideSinks.containsKey(sink)) {
            throw new IllegalArgumentException("sink '" + sink.name() + "' is used twice; give each stream its own");
        }
    }

    @SuppressWarnings("unchecked")
    <T> SideSink<T> sideSink(Sink<T> sink) {
        SideSink<?> side = sideSinks.get(sink);
        if (side == null) {
            if (allSinks.containsKey(sink)) {
                throw new IllegalArgumentException("sink '" + sink.name() + "' already ends a stream");
            }
            side = new SideSink<>(sink, sideSinksByIndex.size());
            sideSinks.put(sink, side);
            sideSinksByIndex.add(side);
            claim(sink);
        }
        return (SideSink<T>) side;
    }

    @SuppressWarnings("unchecked")
    ErrorHandler errorHandler(ErrorPolicy policy) {
        if (policy.deadLetters != null) {
            return ErrorHandler.deadLetter(sideSink((Sink<DeadLetter>) policy.deadLetters));
        }
        return policy.skip ? ErrorHandler.SKIP : ErrorHandler.FAIL;
    }

    /** {@code policy} as the policy of {@code through}'s node: dead letters go to the job's side sink. */
    @SuppressWarnings("unchecked")
    NodeErrors nodeErrors(ErrorPolicy policy, String through) {
        if (policy.deadLetters != null) {
            SideSink<DeadLetter> deadLetters = sideSink((Sink<DeadLetter>) policy.deadLetters);
            deadLetters.writtenByBlock();
            return NodeErrors.deadLetter(failed -> {
                try {
                    deadLetters.write(new DeadLetter(through, 0, failed.item(), failed.error()));
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(
                            "dead-letter sink '" + deadLetters.sink().name() + "' failed: " + e.getMessage(), e);
                }
            });
        }
        return policy.skip ? NodeErrors.skip() : NodeErrors.fail();
    }

    /** The block this job compiles to, drawn in DOT: one box per node, named after its operators. */
    public String toDot() {
        return compile().toDot();
    }

    /**
     * One line per fusion the compiler makes: neighbouring operators of equal parallelism, joined by a
     * forward edge, run as one node per instance (one thread). {@link #run} logs them at INFO, as
     * ff-core's optimizer logs its rewrites.
     */
    public List<String> fusions() {
        return BlockCompiler.fusions(sinks);
    }

    private BuildingBlock compile() {
        if (sinks.isEmpty()) {
            throw new IllegalStateException("job '" + name + "' has no sink: end a stream with sink(...)");
        }
        return BlockCompiler.compile(
                sinks,
                List.copyOf(sideSinksByIndex),
                maxWatermarkDrift == null ? Long.MAX_VALUE : maxWatermarkDrift.toMillis());
    }

    public JobStats run() {
        return run(RunOptions.defaults());
    }

    /**
     * Runs the job to its end and commits its sinks, then its sources ({@link Source#commit()}); on failure
     * every sink and source is aborted (a file sink leaves no file) and a {@link JobFailedException} names
     * the operator and the record.
     */
    public JobStats run(RunOptions options) {
        if (ran) {
            throw new IllegalStateException("job '" + name + "' has already run; a job runs once");
        }
        ran = true;
        BuildingBlock block = compile();
        for (String fusion : fusions()) {
            LOG.info("stream job '{}': {}", name, fusion);
        }
        if (options.checkpointInterval() != null) {
            for (Sink<?> sink : allSinks.keySet()) {
                SideSink<?> side = sideSinks.get(sink);
                String atLeastOnce = side != null ? side.atLeastOnceBecause() : null;
                if (atLeastOnce != null && sink.exactlyOnce()) {
                    LOG.warn(
                            "stream job '{}': side sink '{}' {}: after a restart it may be given again what came after"
                                    + " the checkpoint (at least once)",
                            name,
                            sink.name(),
                            atLeastOnce);
                } else if (!sink.exactlyOnce()) {
                    LOG.warn(
                            "stream job '{}': sink '{}' does not roll back to a checkpoint: after a restart it is"
                                    + " given again what came after the checkpoint (at least once)",
                            name,
                            sink.name());
                }
            }
        }
        List<Sink<?>> opened = new ArrayList<>();
        try {
            for (Sink<?> sink : allSinks.keySet()) {
                sink.open();
                opened.add(sink);
            }
            running = block;
            block.runAndWaitEnd(options);
        } catch (NodeFailedException e) {
            abort(opened);
            abortSources(sources);
            throw failure(e);
        } catch (CancellationException e) {
            abort(opened);
            abortSources(sources);
            throw e;
        } catch (Exception e) {
            abort(opened);
            abortSources(sources);
            throw new JobFailedException("job '" + name + "' failed: " + e.getMessage(), null, null, e);
        } finally {
            running = null;
        }
        // Run as one group of several, this process ran only its group's part: the sinks written elsewhere
        // leave nothing here (a file sink's temporary file is deleted, the file is the other group's).
        List<Sink<?>> here = new ArrayList<>();
        List<Sink<?>> elsewhere = new ArrayList<>();
        for (Sink<?> sink : opened) {
            (startedHere(sink) ? here : elsewhere).add(sink);
        }
        abort(elsewhere);
        try {
            commit(here);
        } catch (RuntimeException e) {
            abortSources(sources);
            throw e;
        }
        commitSources();
        return stats(block);
    }

    private boolean startedHere(Sink<?> sink) {
        SideSink<?> side = sideSinks.get(sink);
        return side != null ? side.startedHere() : streamSinks.get(sink).anyStarted();
    }

    /** Cancels a running job from any thread: its run throws {@link CancellationException}, its sinks abort. */
    public void cancel() {
        BuildingBlock block = running;
        if (block != null) {
            block.cancel();
        }
    }

    private void commit(List<Sink<?>> opened) {
        for (int i = 0; i < opened.size(); i++) {
            try {
                opened.get(i).commit();
            } catch (Exception e) {
                abort(opened.subList(i + 1, opened.size()));
                throw new JobFailedException(
                        "job '" + name + "': sink '" + opened.get(i).name() + "' cannot commit: " + e.getMessage(),
                        "'" + opened.get(i).name() + "'",
                        null,
                        e);
            }
        }
    }

    private void commitSources() {
        for (int i = 0; i < sources.size(); i++) {
            try {
                sources.get(i).commit();
            } catch (Exception e) {
                abortSources(sources.subList(i + 1, sources.size()));
                throw new JobFailedException(
                        "job '" + name + "': source '" + sources.get(i).name() + "' cannot commit: " + e.getMessage(),
                        "'" + sources.get(i).name() + "'",
                        null,
                        e);
            }
        }
    }

    private static void abortSources(List<Source<?>> sources) {
        for (Source<?> source : sources) {
            source.abort();
        }
    }

    private static void abort(List<Sink<?>> opened) {
        for (Sink<?> sink : opened) {
            sink.abort();
        }
    }

    private JobFailedException failure(NodeFailedException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RecordFailure f) {
                Throwable cause = f.getCause();
                return new JobFailedException(
                        "job '" + name + "' failed: operator " + f.operator() + " failed on " + f.record() + ": "
                                + cause,
                        f.operator(),
                        f.record(),
                        cause);
            }
        }
        return new JobFailedException("job '" + name + "' failed: " + e.getMessage(), null, null, e);
    }

    private JobStats stats(BuildingBlock block) {
        Map<String, Long> late = new LinkedHashMap<>();
        Map<String, Long> skipped = new LinkedHashMap<>();
        Map<String, Long> dead = new LinkedHashMap<>();
        for (Transform t : transforms) {
            putIfCounted(late, t.name(), t.total(c -> c.late().get()));
            putIfCounted(skipped, t.name(), t.total(c -> c.skipped().get()));
            putIfCounted(dead, t.name(), t.total(c -> c.deadLettered().get()));
            if (t.block() instanceof Node<?, ?> node) {
                putIfCounted(skipped, t.name(), count(node, "skipped"));
                putIfCounted(dead, t.name(), count(node, "dead-lettered"));
            }
        }
        return new JobStats(block.stats(), late, skipped, dead);
    }

    private static long count(Node<?, ?> node, String counter) {
        return node.counters().stream()
                .filter(c -> c.name().equals(counter))
                .mapToLong(NodeCounter::get)
                .sum();
    }

    private static void putIfCounted(Map<String, Long> counts, String operator, long count) {
        if (count > 0) {
            counts.merge(operator, count, Long::sum);
        }
    }
}
