package org.fastflowj.bench.nexmark;

import java.io.Serializable;

/**
 * One run of one query on one engine: {@code events} events from the generator at {@code parallelism},
 * either as fast as possible ({@code wallRate <= 0}) or paced at {@code wallRate} events per second of
 * wall-clock time; the results are counted, digested or timed in the run's {@link Tally}.
 *
 * @param id the run's name, unique in the JVM: the key of its {@link Tally} and of its wall-clock start
 * @param query the query
 * @param events how many events in all
 * @param parallelism the sources' instances, and every operator's
 * @param eventTimeRate events per second of event time
 * @param wallRate events per second of wall-clock time, or 0 for as fast as possible
 * @param mode what the sink does with each result
 */
public record RunSpec(
        String id, Query query, long events, int parallelism, double eventTimeRate, double wallRate, Tally.Mode mode)
        implements Serializable {
    public NexmarkGenerator generator() {
        return new NexmarkGenerator(eventTimeRate);
    }

    /** Instance {@code instance} of {@code instances}' share of the events. */
    public Slice slice(int instance, int instances) {
        return new Slice(this, instance, instances, Slice.Kind.ALL);
    }

    /** Instance {@code instance} of {@code instances}' share of the events of one kind. */
    public Slice slice(int instance, int instances, Slice.Kind kind) {
        return new Slice(this, instance, instances, kind);
    }
}
