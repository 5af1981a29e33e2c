package org.fastflowj.bench.nexmark;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.fastflowj.bench.nexmark.Event.Auction;
import org.fastflowj.bench.nexmark.Event.Bid;
import org.fastflowj.bench.nexmark.Event.Person;
import org.fastflowj.bench.nexmark.Results.AuctionCount;
import org.fastflowj.bench.nexmark.Results.AuctionPrice;
import org.fastflowj.bench.nexmark.Results.HighestBid;
import org.fastflowj.bench.nexmark.Results.HotItem;
import org.fastflowj.bench.nexmark.Results.NewPerson;
import org.fastflowj.bench.nexmark.Results.PersonAuction;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.stream.Aggregates;
import org.fastflowj.stream.DataStream;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.KeyedProcessFunction;
import org.fastflowj.stream.KeyedStates;
import org.fastflowj.stream.ListState;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.SourceReader;
import org.fastflowj.stream.StreamJob;
import org.fastflowj.stream.ValueState;
import org.fastflowj.stream.Watermarks;
import org.fastflowj.stream.Windows;

/**
 * The queries on FastFlow-J's stream API. Every operator runs at the run's parallelism (the source's, which
 * they inherit). The stream API's sink is one instance, so the results are counted by a last fused
 * {@code flatMap} that emits nothing (as Flink's and Jet's sinks count in each of their instances), and the
 * sink itself sees only the end of the stream.
 */
public final class FfjNexmark {
    private FfjNexmark() {}

    /** Runs the query to its end; returns the job's wall-clock time in ns. */
    public static long run(RunSpec spec) {
        return run(spec, null);
    }

    /**
     * Runs the query to its end with a checkpoint every {@code checkpointEvery} (null: none) into a store
     * in a temporary directory, deleted after the run; returns the job's wall-clock time in ns.
     */
    public static long run(RunSpec spec, Duration checkpointEvery) {
        StreamJob job = StreamJob.named("nexmark-" + spec.query().name().toLowerCase(java.util.Locale.ROOT));
        DataStream<?> results;
        if (spec.query() == Query.Q8) {
            results = newUsers(job, spec);
        } else if (spec.query() == Query.Q8_BOUND) {
            results = personsAndAuctions(job, spec);
        } else {
            DataStream<Event> events = job.source(new EventSource(spec, Slice.Kind.ALL))
                    .name("nexmark")
                    .parallelism(spec.parallelism());
            results = query(spec.query(), events);
        }
        Tally tally = Tally.of(spec.id());
        results.flatMap((Object r, Consumer<Object> out) -> tally.record(r))
                .name("count")
                .sink(Sinks.forEach(r -> {}));
        if (checkpointEvery == null) {
            long start = System.nanoTime();
            job.run();
            return System.nanoTime() - start;
        }
        Path store = temporaryDirectory();
        try {
            RunOptions options = RunOptions.defaults()
                    .checkpoints(checkpointEvery, CheckpointStore.directory(store.resolve("store")));
            long start = System.nanoTime();
            JobStats stats = job.run(options);
            long nanos = System.nanoTime() - start;
            CheckpointStats checkpoints = stats.run().checkpoints().orElse(CheckpointStats.NONE);
            if (checkpoints.completed() == 0 && nanos > 2 * checkpointEvery.toNanos()) {
                throw new IllegalStateException("a run of " + nanos / 1_000_000 + " ms with a checkpoint every "
                        + checkpointEvery + " completed none");
            }
            return nanos;
        } finally {
            deleteRecursively(store);
        }
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("nexmark-checkpoints");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the checkpoints in " + dir, e);
        }
    }

    static DataStream<?> query(Query query, DataStream<Event> events) {
        return switch (query) {
            case BOUND, Q1_BOUND -> events;
            case Q1 -> bids(events).map(Results::inEuros).name("q1");
            case Q2 -> bids(events)
                    .filter(Results::q2Selects)
                    .map(b -> new AuctionPrice(b.auction(), b.price()))
                    .name("q2");
            case Q3 -> events.filter(e -> Results.q3Person(e) || Results.q3Auction(e))
                    .name("q3-select")
                    .keyBy(e -> e instanceof Person p ? p.id() : ((Auction) e).seller())
                    .process(IncrementalJoin::new)
                    .name("q3-join");
            case Q5, Q5_100MS -> hotItems(query, timedBids(events));
            case Q7 -> highestBids(query, timedBids(events));
            case Q8, Q8_BOUND -> throw new IllegalArgumentException("q8 reads two streams: see newUsers");
        };
    }

    /** q8's bound: its two sources, as q8 reads them, straight into the count. */
    static DataStream<Event> personsAndAuctions(StreamJob job, RunSpec spec) {
        DataStream<Event> persons = job.source(new EventSource(spec, Slice.Kind.PERSONS))
                .name("nexmark-persons")
                .parallelism(spec.parallelism())
                .withTimestamps(Event::dateTime, Watermarks.ascending());
        DataStream<Event> auctions = job.source(new EventSource(spec, Slice.Kind.AUCTIONS))
                .name("nexmark-auctions")
                .parallelism(spec.parallelism())
                .withTimestamps(Event::dateTime, Watermarks.ascending());
        return persons.union(auctions);
    }

    /**
     * q8: a stream of persons and one of auctions (a stream feeds one operator, so each has its own source,
     * which makes only its kind of events), joined per tumbling window. The join's function sees the pair,
     * not the window: the window's start comes from the person's time.
     */
    static DataStream<NewPerson> newUsers(StreamJob job, RunSpec spec) {
        DataStream<Person> persons = job.source(new EventSource(spec, Slice.Kind.PERSONS))
                .name("nexmark-persons")
                .parallelism(spec.parallelism())
                .withTimestamps(Event::dateTime, Watermarks.ascending())
                .map(e -> (Person) e);
        DataStream<Auction> auctions = job.source(new EventSource(spec, Slice.Kind.AUCTIONS))
                .name("nexmark-auctions")
                .parallelism(spec.parallelism())
                .withTimestamps(Event::dateTime, Watermarks.ascending())
                .map(e -> (Auction) e);
        long size = Query.Q8.sizeMillis;
        return persons.join(auctions)
                .where(Person::id)
                .equalTo(Auction::seller)
                .window(Windows.tumbling(Query.Q8.size()))
                .apply((Person p, Auction a) ->
                        new NewPerson(p.id(), p.name(), Math.floorDiv(p.dateTime(), size) * size))
                .name("q8-join");
    }

    private static DataStream<Bid> bids(DataStream<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e).name("bids");
    }

    private static DataStream<Bid> timedBids(DataStream<Event> events) {
        return bids(events.withTimestamps(Event::dateTime, Watermarks.ascending()));
    }

    private static DataStream<HotItem> hotItems(Query query, DataStream<Bid> bids) {
        return bids.keyBy(Bid::auction)
                .window(Windows.sliding(query.size(), query.slide()))
                .aggregate(Aggregates.counting())
                .name("bids-per-auction")
                .map(r -> new AuctionCount(r.start(), r.end(), r.key(), r.value()))
                // A window's counts carry the time end - 1: the next slide-long window holds exactly them.
                .windowAll(Windows.tumbling(query.slide()))
                .reduce(Results::hotter)
                .name("hottest")
                .map(r -> HotItem.of(r.value()));
    }

    private static DataStream<HighestBid> highestBids(Query query, DataStream<Bid> bids) {
        return bids.windowAll(Windows.tumbling(query.size()))
                .aggregate(Aggregates.maxBy(Results::compareHeight))
                .name("highest")
                .map(r -> new HighestBid(r.start(), r.end(), r.value()));
    }

    /** q3: a person's record waits in keyed state for their auctions, auctions before it wait in a list. */
    static final class IncrementalJoin extends KeyedProcessFunction<Long, Event, PersonAuction> {
        private ValueState<Person> person;
        private ListState<Auction> pending;

        @Override
        public void open(KeyedStates states) {
            person = states.value("person");
            pending = states.list("pending");
        }

        @Override
        public void processElement(Event e, Context<Long, PersonAuction> ctx) {
            if (e instanceof Person p) {
                person.update(p);
                for (Auction a : pending.get()) {
                    ctx.emit(PersonAuction.of(p, a));
                }
                pending.clear();
            } else {
                Auction a = (Auction) e;
                Person p = person.value();
                if (p != null) {
                    ctx.emit(PersonAuction.of(p, a));
                } else {
                    pending.add(a);
                }
            }
        }
    }

    /** The generator as a stream source: instance i of n makes events i, i + n, ... */
    static final class EventSource implements Source<Event> {
        private static final int BATCH = 256;
        private final RunSpec spec;
        private final Slice.Kind kind;

        EventSource(RunSpec spec, Slice.Kind kind) {
            this.spec = spec;
            this.kind = kind;
        }

        @Override
        public String name() {
            return "nexmark";
        }

        /** The generator makes event n from n alone: a reader's position is its next event number. */
        @Override
        public boolean replayable() {
            return true;
        }

        @Override
        public SourceReader<Event> open(int instance, int instances) {
            Slice slice = spec.slice(instance, instances, kind);
            return new SourceReader<>() {
                @Override
                public boolean emit(Consumer<? super Event> out) {
                    for (int n = 0; n < BATCH && slice.hasNext(); n++) {
                        long wait = slice.nanosUntilNext();
                        if (wait > 0) {
                            LockSupport.parkNanos(Math.min(wait, 1_000_000));
                            return true;
                        }
                        out.accept(slice.next());
                    }
                    return slice.hasNext();
                }

                @Override
                public void savePosition(DataOutput out) throws IOException {
                    out.writeLong(slice.position());
                }

                @Override
                public void seek(DataInput in) throws IOException {
                    slice.seek(in.readLong());
                }
            };
        }
    }
}
