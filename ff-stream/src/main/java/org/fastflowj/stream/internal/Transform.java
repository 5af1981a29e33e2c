package org.fastflowj.stream.internal;

import java.util.Collection;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.stream.Sink;
import org.fastflowj.stream.Source;

/**
 * One operator of the job's logical plan, before compilation: its kind, name and parallelism, how its
 * input reaches it, and what each of its instances runs. A transform feeds at most one consumer.
 */
public final class Transform {
    public enum Kind {
        SOURCE,
        OPERATOR,
        SINK,
        THROUGH
    }

    final Kind kind;
    final List<Transform> inputs;
    final Exchange exchange;
    final IntFunction<Operator> operators;
    final Source<?> source;
    final Sink<?> sink;
    final BuildingBlock block;
    /** Each instance's counters, made anew by each compilation ({@link #info}). */
    private OperatorInfo.Counters[] counters = {};

    String name;
    int parallelism;
    ErrorHandler errors = ErrorHandler.FAIL;
    Transform consumer;
    /** The ff-dist group its stage runs in; null: the job's home group. */
    String group;
    /** Where a window sends its late records; null: nowhere. */
    private SideSink<?> lateSink;
    /** A sink's side sinks whose records come down its stream, set by each compilation. */
    List<SideSink<?>> sideSinksReaching = List.of();
    /**
     * A window's first stage ({@link PartialAggregateOperator}), named as the window and sharing its
     * error policy; null for other operators.
     */
    private Transform firstStage;
    /** This is a window's first stage: left out where it fuses with the window itself (nothing to save). */
    boolean isFirstStage;
    /** Why this operator runs as one instance; null if its parallelism may be set. */
    private String oneInstance;

    private Transform(
            Kind kind,
            String name,
            int parallelism,
            List<Transform> inputs,
            Exchange exchange,
            IntFunction<Operator> operators,
            Source<?> source,
            Sink<?> sink,
            BuildingBlock block) {
        this.kind = kind;
        this.name = name;
        this.parallelism = parallelism;
        this.inputs = List.copyOf(inputs);
        this.exchange = exchange;
        this.operators = operators;
        this.source = source;
        this.sink = sink;
        this.block = block;
    }

    public static Transform source(Source<?> source) {
        return new Transform(Kind.SOURCE, source.name(), 1, List.of(), Exchange.FORWARD, null, source, null, null);
    }

    public static Transform operator(
            String name, List<Transform> inputs, Exchange exchange, IntFunction<Operator> operators) {
        return new Transform(
                Kind.OPERATOR, name, inputs.get(0).parallelism, inputs, exchange, operators, null, null, null);
    }

    public static Transform sink(Sink<?> sink, Transform input, Exchange exchange) {
        return new Transform(Kind.SINK, sink.name(), 1, List.of(input), exchange, null, null, sink, null);
    }

    public static Transform through(BuildingBlock block, Transform input) {
        return new Transform(
                Kind.THROUGH, "through(" + block + ")", 1, List.of(input), Exchange.FORWARD, null, null, null, block);
    }

    public String name() {
        return name;
    }

    public void name(String newName) {
        this.name = newName;
        if (firstStage != null) {
            firstStage.name = newName;
        }
    }

    /** Makes {@code first}, this window's input, its first stage. */
    public void firstStage(Transform first) {
        first.isFirstStage = true;
        first.name = name;
        first.errors = errors;
        firstStage = first;
    }

    public int parallelism() {
        return parallelism;
    }

    /** Keeps this operator at one instance: {@code what} says why, when a parallelism is set. */
    public void oneInstance(String what) {
        this.oneInstance = what;
        this.parallelism = 1;
    }

    public void parallelism(int n) {
        if (oneInstance != null && n != 1) {
            throw new IllegalArgumentException("'" + name + "': " + oneInstance
                    + " runs as one instance (its first stage runs at its input's parallelism); its parallelism"
                    + " cannot be set to " + n);
        }
        if (kind == Kind.SINK || kind == Kind.THROUGH) {
            throw new IllegalArgumentException(
                    "'" + name + "': a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                            + " runs as one instance; its parallelism cannot be set");
        }
        if (kind == Kind.SOURCE && n > source.maxParallelism()) {
            throw new IllegalArgumentException(
                    "source '" + name + "' can be read by at most " + source.maxParallelism() + " instances, not " + n);
        }
        this.parallelism = n;
    }

    public String group() {
        return group;
    }

    public void group(String groupName) {
        if (kind == Kind.THROUGH) {
            throw new IllegalArgumentException("'" + name + "': a block dropped into a stream runs in the home group "
                    + BlockCompiler.HOME_GROUP + "; set the group of the operators before or after it");
        }
        this.group = groupName;
    }

    public void errors(ErrorHandler handler) {
        this.errors = handler;
        if (firstStage != null) {
            firstStage.errors = handler;
        }
    }

    public void lateSink(SideSink<?> side) {
        this.lateSink = side;
    }

    /** Adds the side sinks this operator sends records to. */
    void sideSinks(Collection<SideSink<?>> into) {
        if (errors.deadLetters() != null) {
            into.add(errors.deadLetters());
        }
        if (lateSink != null) {
            into.add(lateSink);
        }
    }

    /** {@code count} of every instance's counters, added up. */
    public long total(ToLongFunction<OperatorInfo.Counters> count) {
        long total = 0;
        for (OperatorInfo.Counters c : counters) {
            total += c == null ? 0 : count.applyAsLong(c);
        }
        return total;
    }

    /** Whether an instance of this transform started in this process. */
    public boolean anyStarted() {
        for (OperatorInfo.Counters c : counters) {
            if (c != null && c.started().get()) {
                return true;
            }
        }
        return false;
    }

    public Kind kind() {
        return kind;
    }

    /** The block a {@link Kind#THROUGH} runs, else null. */
    public BuildingBlock block() {
        return block;
    }

    /** Notes that {@code next} consumes this transform's output, refusing a second consumer. */
    public void feeds(Transform next) {
        if (consumer != null) {
            throw new IllegalStateException("stream '" + name + "' already feeds '" + consumer.name + "'; a stream"
                    + " feeds one operator (write the second use as part of the first, or use broadcast())");
        }
        consumer = next;
    }

    OperatorInfo info(int instance) {
        if (counters.length != parallelism) {
            counters = new OperatorInfo.Counters[parallelism];
        }
        counters[instance] = new OperatorInfo.Counters();
        return new OperatorInfo(name, instance, parallelism, counters[instance]);
    }
}
