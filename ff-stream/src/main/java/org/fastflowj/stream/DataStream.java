package org.fastflowj.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;
import org.fastflowj.stream.internal.Exchange;
import org.fastflowj.stream.internal.Joins;
import org.fastflowj.stream.internal.Operator;
import org.fastflowj.stream.internal.Operators;
import org.fastflowj.stream.internal.Transform;

/**
 * A typed stream of records, the output of one operator. Each method adds an operator reading this
 * stream and returns that operator's output; {@link #name}, {@link #parallelism} and {@link #onError}
 * set the operator that produced this stream. An operator inherits its input's parallelism. A stream
 * feeds one operator. User functions are shared by an operator's instances (one thread each): they must
 * not keep mutable state of their own (keyed state lives in {@link KeyedStream#process}).
 *
 * @param <T> the records' type
 */
public final class DataStream<T> {
    final StreamJob job;
    final Transform transform;
    final Exchange exchange;
    final boolean timed;

    DataStream(StreamJob job, Transform transform, Exchange exchange, boolean timed) {
        this.job = job;
        this.transform = transform;
        this.exchange = exchange;
        this.timed = timed;
    }

    <R> DataStream<R> then(String name, Exchange how, IntFunction<Operator> operators, boolean resultTimed) {
        Transform next = Transform.operator(name, List.of(transform), how, operators);
        transform.feeds(next);
        job.register(next);
        return new DataStream<>(job, next, Exchange.FORWARD, resultTimed);
    }

    /**
     * A window's first stage, reading this stream where its records are (see {@link
     * org.fastflowj.stream.internal.PartialAggregateOperator}); the window names it, as a part of itself.
     */
    DataStream<Object> firstStage(IntFunction<Operator> operators) {
        Transform next = Transform.operator("first stage", List.of(transform), exchange, operators);
        transform.feeds(next);
        job.registerPart(next);
        return new DataStream<>(job, next, Exchange.FORWARD, timed);
    }

    public <R> DataStream<R> map(Function<? super T, ? extends R> f) {
        Objects.requireNonNull(f, "f");
        return then("map", exchange, i -> Operators.map(f), timed);
    }

    public DataStream<T> filter(Predicate<? super T> p) {
        Objects.requireNonNull(p, "p");
        return then("filter", exchange, i -> Operators.filter(p), timed);
    }

    /** Any number of results per record, given to {@code out}; they keep the record's time. */
    public <R> DataStream<R> flatMap(BiConsumer<? super T, Consumer<R>> f) {
        Objects.requireNonNull(f, "f");
        return then("flatMap", exchange, i -> Operators.flatMap(f), timed);
    }

    /**
     * Gives each record its event time in milliseconds and starts the watermarks ({@code watermarks} says
     * how far behind the newest time they follow).
     */
    public DataStream<T> withTimestamps(ToLongFunction<? super T> timestampOf, Watermarks watermarks) {
        Objects.requireNonNull(timestampOf, "timestampOf");
        long disorder = watermarks.disorderMillis;
        long idle = watermarks.idleMillis;
        return then("timestamps", exchange, i -> Operators.timestamps(timestampOf, disorder, idle), true);
    }

    /**
     * This stream and {@code others} as one; the result's watermark is the minimum of theirs (an input
     * that ended no longer holds it back).
     */
    @SafeVarargs
    public final DataStream<T> union(DataStream<T>... others) {
        List<Transform> inputs = new ArrayList<>(List.of(transform));
        boolean allTimed = timed;
        for (DataStream<T> other : others) {
            if (other.job != job) {
                throw new IllegalArgumentException(
                        "union: stream '" + other.transform.name() + "' belongs to another job");
            }
            inputs.add(other.transform);
            allTimed &= other.timed;
        }
        Transform union = Transform.operator("union", inputs, Exchange.REBALANCE, i -> Operators.identity());
        for (Transform input : inputs) {
            input.feeds(union);
        }
        job.register(union);
        return new DataStream<>(job, union, Exchange.FORWARD, allTimed);
    }

    /** The next operator's instances take this stream's records in turn. */
    public DataStream<T> rebalance() {
        return new DataStream<>(job, transform, Exchange.REBALANCE, timed);
    }

    /** Every instance of the next operator gets every record. */
    public DataStream<T> broadcast() {
        return new DataStream<>(job, transform, Exchange.BROADCAST, timed);
    }

    /**
     * Drops a block of ff-core into the stream: it takes the records' values and its outputs are the
     * next stream. Watermarks stop at the block; the stream after it has event time again after a
     * {@link #withTimestamps}.
     */
    public <R> DataStream<R> through(BuildingBlock block) {
        Objects.requireNonNull(block, "block");
        Transform through = Transform.through(block, transform);
        transform.feeds(through);
        job.register(through);
        return new DataStream<>(job, through, Exchange.FORWARD, false);
    }

    /**
     * A windowed join of this stream (the left side) with {@code other} (the right side): {@code
     * join(other).where(leftKey).equalTo(rightKey).window(w).apply(f)}; see {@link JoinedStreams}.
     */
    public <U> JoinedStreams<T, U> join(DataStream<U> other) {
        Objects.requireNonNull(other, "other");
        if (other.job != job) {
            throw new IllegalArgumentException("join: stream '" + other.transform.name() + "' belongs to another job");
        }
        return new JoinedStreams<>(this, other);
    }

    /** Routes records by {@code key}: every record of a key reaches the same instance, in arrival order. */
    public <K> KeyedStream<K, T> keyBy(Function<? super T, ? extends K> key) {
        return new KeyedStream<>(this, Objects.requireNonNull(key, "key"));
    }

    /**
     * Groups all the records into windows, as one key: an aggregate's results are {@link WindowResult}s
     * whose key is null, and the window runs as one instance. Tumbling and sliding windows in event time
     * are aggregated in two stages: each instance of this stream aggregates its own records per frame,
     * and only those partial results reach the window's instance.
     */
    public WindowedStream<Void, T> windowAll(Windows windows) {
        Objects.requireNonNull(windows, "windows");
        if (windows.needsTime()) {
            requireTime("windowAll", windows);
        }
        return new WindowedStream<>(new KeyedStream<>(this, record -> null), windows, true);
    }

    void requireTime(String operator, Windows windows) {
        if (!timed) {
            throw new IllegalStateException((windows == null ? operator : operator + " " + windows) + " after '"
                    + transform.name() + "' needs event time: call withTimestamps(...) before it");
        }
    }

    /**
     * The operator {@code name} reading this stream and {@code right}, each side's records tagged with
     * their side and routed by {@code key} to {@code operators}.
     */
    <R> DataStream<R> joinWith(
            DataStream<?> right, String name, Function<Object, Object> key, IntFunction<Operator> operators) {
        Transform leftTagged = then("tag left", exchange, i -> Joins.tag(0), true).transform;
        Transform rightTagged = right.then("tag right", right.exchange, i -> Joins.tag(1), true).transform;
        Transform join = Transform.operator(name, List.of(leftTagged, rightTagged), Exchange.keyed(key), operators);
        leftTagged.feeds(join);
        rightTagged.feeds(join);
        job.register(join);
        return new DataStream<>(job, join, Exchange.FORWARD, true);
    }

    /** Ends the stream in {@code sink} (one instance). */
    public void sink(Sink<? super T> sink) {
        Objects.requireNonNull(sink, "sink");
        Transform end = Transform.sink(sink, transform, exchange);
        transform.feeds(end);
        job.register(end);
        job.addSink(end, sink);
    }

    /** Names the operator that produced this stream (its nodes, its statistics, its failures). */
    public DataStream<T> name(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an operator's name cannot be blank");
        }
        transform.name(name);
        return this;
    }

    /** Runs the operator that produced this stream as {@code n} instances. */
    public DataStream<T> parallelism(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("'" + transform.name() + "': parallelism must be at least 1, not " + n);
        }
        transform.parallelism(n);
        return this;
    }

    /**
     * Runs the instances of the operator that produced this stream, and of the operators fused with it into
     * one stage, in the ff-dist group {@code name}; the stages given no group run in the home group {@code
     * "main"}. In one process (no group selected) the whole job runs here; started as groups
     * (ff-dist's {@code DFF.init}, the launcher), each process runs its group's part. A group other than the
     * home group holds one stage.
     *
     * @throws IllegalArgumentException if {@code name} is not a group name
     */
    public DataStream<T> group(String name) {
        if (!Group.isValidName(name)) {
            throw new IllegalArgumentException(
                    "'" + transform.name() + "': " + (name == null ? "null" : "\"" + name + "\"")
                            + " is not a group name; expected " + Group.NAME_RULE);
        }
        transform.group(name);
        return this;
    }

    /**
     * What the operator that produced this stream does when its function throws; fail by default. For a
     * stream of {@link #through} a block of one node, that node's policy ({@code Node.onError}): its dead
     * letters go to the sink as those of an operator named as the stream, instance 0.
     */
    public DataStream<T> onError(ErrorPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        if (transform.kind() == Transform.Kind.THROUGH) {
            // A block of one node takes the policy as its node's (ff-core's NodeErrors); a larger block's
            // nodes are the program's to set.
            if (!(transform.block() instanceof Node<?, ?> node)) {
                throw new IllegalArgumentException("'" + transform.name() + "': onError applies to a block of one"
                        + " node; give the nodes of a larger block their own policy (Node.onError)");
            }
            node.onError(job.nodeErrors(policy, transform.name()));
            return this;
        }
        if (transform.kind() != Transform.Kind.OPERATOR) {
            throw new IllegalArgumentException(
                    "'" + transform.name() + "': onError applies to operators; a source's failure fails the job");
        }
        transform.errors(job.errorHandler(policy));
        return this;
    }
}
