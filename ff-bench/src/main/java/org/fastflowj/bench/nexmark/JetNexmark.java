package org.fastflowj.bench.nexmark;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.Traverser;
import com.hazelcast.jet.Traversers;
import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.EventTimeMapper;
import com.hazelcast.jet.core.EventTimePolicy;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.Sources;
import com.hazelcast.jet.pipeline.StreamSource;
import com.hazelcast.jet.pipeline.StreamStage;
import com.hazelcast.jet.pipeline.WindowDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.fastflowj.bench.nexmark.Event.Auction;
import org.fastflowj.bench.nexmark.Event.Bid;
import org.fastflowj.bench.nexmark.Event.Person;
import org.fastflowj.bench.nexmark.Results.AuctionCount;
import org.fastflowj.bench.nexmark.Results.AuctionPrice;
import org.fastflowj.bench.nexmark.Results.HighestBid;
import org.fastflowj.bench.nexmark.Results.HotItem;
import org.fastflowj.bench.nexmark.Results.NewPerson;
import org.fastflowj.bench.nexmark.Results.PersonAuction;

/**
 * The queries on Hazelcast Jet's pipeline API, on one embedded member in this JVM (loopback only, no
 * discovery), its cooperative threads as many as the run's parallelism. The source is a processor whose
 * instance i of n makes events i, i + n, ... and completes after the last: Jet then flushes every open
 * window, as the other engines do at the end of a bounded stream. Watermarks: allowed lag 0.
 */
public final class JetNexmark {
    private static HazelcastInstance member;
    private static int memberThreads;

    private JetNexmark() {}

    /** The member for {@code parallelism} cooperative threads (a member for another count is shut down). */
    static synchronized HazelcastInstance member(int parallelism) {
        if (member != null && memberThreads == parallelism) {
            return member;
        }
        shutdown();
        Config config = new Config();
        config.setClusterName("nexmark-" + UUID.randomUUID());
        config.getJetConfig().setEnabled(true).setCooperativeThreadCount(parallelism);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
        NetworkConfig net = config.getNetworkConfig();
        net.setPortAutoIncrement(true);
        net.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        member = Hazelcast.newHazelcastInstance(config);
        memberThreads = parallelism;
        return member;
    }

    public static synchronized void shutdown() {
        if (member != null) {
            member.shutdown();
            member = null;
        }
    }

    /** Runs the query to its end; returns the job's wall-clock time in ns (the member's start excluded). */
    public static long run(RunSpec spec) {
        HazelcastInstance hz = member(spec.parallelism());
        Pipeline p = Pipeline.create();
        StreamStage<?> query;
        if (spec.query() == Query.Q8) {
            query = newUsers(p, spec);
        } else if (spec.query() == Query.Q8_BOUND) {
            query = p.readFrom(source(spec, Slice.Kind.PERSONS))
                    .withTimestamps(Event::dateTime, 0)
                    .merge(p.readFrom(source(spec, Slice.Kind.AUCTIONS)).withTimestamps(Event::dateTime, 0));
        } else {
            var source = p.readFrom(source(spec, Slice.Kind.ALL));
            StreamStage<Event> events =
                    spec.query().windowed ? source.withTimestamps(Event::dateTime, 0) : source.withoutTimestamps();
            query = query(spec.query(), events);
        }
        @SuppressWarnings("unchecked")
        StreamStage<Object> results = (StreamStage<Object>) query;
        results.writeTo(countingSink(spec));
        long start = System.nanoTime();
        Job job = hz.getJet()
                .newJob(
                        p,
                        new JobConfig().setName("nexmark-" + spec.query().name().toLowerCase(Locale.ROOT)));
        job.join();
        return System.nanoTime() - start;
    }

    static StreamStage<?> query(Query query, StreamStage<Event> events) {
        return switch (query) {
            case BOUND, Q1_BOUND -> events;
            case Q1 -> bids(events).map(Results::inEuros);
            case Q2 -> bids(events).filter(Results::q2Selects).map(b -> new AuctionPrice(b.auction(), b.price()));
            case Q3 -> events.filter(e -> Results.q3Person(e) || Results.q3Auction(e))
                    .groupingKey(e -> e instanceof Person p ? p.id() : ((Auction) e).seller())
                    .flatMapStateful(JoinState::new, JetNexmark::join);
            case Q5, Q5_100MS -> bids(events)
                    .window(WindowDefinition.sliding(query.sizeMillis, query.slideMillis))
                    .groupingKey(Bid::auction)
                    .aggregate(AggregateOperations.counting())
                    .map(r -> new AuctionCount(r.start(), r.end(), r.key(), r.result()))
                    // The counts of a window share its time: a 1 ms window holds exactly them.
                    .window(WindowDefinition.tumbling(1))
                    .aggregate(AggregateOperations.maxBy(Results::compareHeat))
                    .map(r -> HotItem.of(r.result()));
            case Q7 -> bids(events)
                    .window(WindowDefinition.tumbling(query.sizeMillis))
                    .aggregate(AggregateOperations.maxBy(Results::compareHeight))
                    .map(r -> new HighestBid(r.start(), r.end(), r.result()));
            case Q8, Q8_BOUND -> throw new IllegalArgumentException("q8 reads two streams: see newUsers");
        };
    }

    /** q8: persons and auctions from a source each, co-grouped per tumbling window by person id = seller. */
    static StreamStage<NewPerson> newUsers(Pipeline p, RunSpec spec) {
        StreamStage<Person> persons = p.readFrom(source(spec, Slice.Kind.PERSONS))
                .withTimestamps(Event::dateTime, 0)
                .map(e -> (Person) e);
        StreamStage<Auction> auctions = p.readFrom(source(spec, Slice.Kind.AUCTIONS))
                .withTimestamps(Event::dateTime, 0)
                .map(e -> (Auction) e);
        return persons.window(WindowDefinition.tumbling(Query.Q8.sizeMillis))
                .groupingKey(Person::id)
                .aggregate2(
                        auctions.groupingKey(Auction::seller),
                        AggregateOperations.aggregateOperation2(
                                AggregateOperations.<Person>toList(), AggregateOperations.<Auction>toList()))
                .flatMap(r -> {
                    List<NewPerson> out = new ArrayList<>();
                    for (Person person : r.result().f0()) {
                        for (int i = 0; i < r.result().f1().size(); i++) {
                            out.add(new NewPerson(person.id(), person.name(), r.start()));
                        }
                    }
                    return Traversers.traverseIterable(out);
                });
    }

    private static StreamStage<Bid> bids(StreamStage<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e);
    }

    /** q3's state per seller: the person once seen, the auctions that came before. */
    static final class JoinState {
        Person person;
        List<Auction> pending = new ArrayList<>();
    }

    private static Traverser<PersonAuction> join(JoinState state, Long seller, Event e) {
        if (e instanceof Person p) {
            state.person = p;
            List<PersonAuction> out = new ArrayList<>(state.pending.size());
            for (Auction a : state.pending) {
                out.add(PersonAuction.of(p, a));
            }
            state.pending = new ArrayList<>();
            return Traversers.traverseIterable(out);
        }
        Auction a = (Auction) e;
        if (state.person != null) {
            return Traversers.singleton(PersonAuction.of(state.person, a));
        }
        state.pending.add(a);
        return Traversers.empty();
    }

    private static StreamSource<Event> source(RunSpec spec, Slice.Kind kind) {
        int parallelism = spec.parallelism();
        return Sources.streamFromProcessorWithWatermarks(
                "nexmark-" + kind.name().toLowerCase(Locale.ROOT),
                false,
                policy -> ProcessorMetaSupplier.of(parallelism, () -> new GeneratorP(spec, kind, policy)));
    }

    private static Sink<Object> countingSink(RunSpec spec) {
        int parallelism = spec.parallelism();
        String runId = spec.id();
        return Sinks.fromProcessor("count", ProcessorMetaSupplier.of(parallelism, () -> new CountP(runId)));
    }

    /** The generator: cooperative, a bounded batch per call, done after its last event. */
    static final class GeneratorP extends AbstractProcessor {
        private final RunSpec spec;
        private final Slice.Kind kind;
        private final EventTimeMapper<Event> mapper;
        private Slice slice;
        private Traverser<Object> pending;

        GeneratorP(RunSpec spec, Slice.Kind kind, EventTimePolicy<? super Event> policy) {
            this.spec = spec;
            this.kind = kind;
            this.mapper = new EventTimeMapper<>(policy);
            mapper.addPartitions(1);
        }

        @Override
        protected void init(Context context) {
            slice = spec.slice(context.globalProcessorIndex(), context.totalParallelism(), kind);
        }

        @Override
        public boolean complete() {
            if (pending != null && !emitFromTraverser(pending)) {
                return false;
            }
            pending = null;
            for (int n = 0; n < 256 && slice.hasNext(); n++) {
                if (slice.nanosUntilNext() > 0) {
                    return false;
                }
                Traverser<Object> t = mapper.flatMapEvent(slice.next(), 0, EventTimeMapper.NO_NATIVE_TIME);
                if (!emitFromTraverser(t)) {
                    pending = t;
                    return false;
                }
            }
            return !slice.hasNext();
        }
    }

    /** Each instance hands its results to the run's {@link Tally}. */
    static final class CountP extends AbstractProcessor {
        private final String runId;
        private Tally tally;

        CountP(String runId) {
            this.runId = runId;
        }

        @Override
        protected void init(Context context) {
            tally = Tally.of(runId);
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            tally.record(item);
            return true;
        }
    }
}
