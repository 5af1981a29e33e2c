package org.fastflowj.bench.nexmark;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
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
 * The queries on Flink's DataStream API, on a local MiniCluster in this JVM (streaming mode, every operator
 * at the run's parallelism, chained where Flink chains). The source is a FLIP-27 source whose reader i of
 * n makes events i, i + n, ...; its watermark follows each new event time ({@code t - 1}: disorder 0), as
 * FastFlow-J's {@code Watermarks.ascending()} does.
 */
public final class FlinkNexmark {
    private FlinkNexmark() {}

    /** Runs the query to its end; returns the job's net run time in ns (the MiniCluster's start excluded). */
    public static long run(RunSpec spec) throws Exception {
        return runAll(List.of(spec));
    }

    /**
     * Runs several queries side by side as one job (one MiniCluster start), each from its own source into its
     * own run's tally; returns the job's net run time in ns.
     */
    public static long runAll(List<RunSpec> specs) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        conf.setString("jobmanager.rpc.address", "127.0.0.1");
        int parallelism = specs.stream().mapToInt(RunSpec::parallelism).max().orElse(1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        env.getConfig().enableObjectReuse();
        for (RunSpec spec : specs) {
            add(env, spec);
        }
        var result = env.execute("nexmark-" + specs.get(0).query().name().toLowerCase(Locale.ROOT));
        return result.getNetRuntime() * 1_000_000L;
    }

    private static void add(StreamExecutionEnvironment env, RunSpec spec) {
        WatermarkStrategy<Event> watermarks = spec.query().windowed
                ? WatermarkStrategy.<Event>forGenerator(ctx -> new AscendingWatermarks())
                        .withTimestampAssigner((e, ts) -> e.dateTime())
                : WatermarkStrategy.noWatermarks();
        DataStream<?> results;
        if (spec.query() == Query.Q8) {
            results = newUsers(env, spec, watermarks);
        } else if (spec.query() == Query.Q8_BOUND) {
            results = env.fromSource(new EventSource(spec, Slice.Kind.PERSONS), watermarks, "nexmark-persons")
                    .setParallelism(spec.parallelism())
                    .union(env.fromSource(new EventSource(spec, Slice.Kind.AUCTIONS), watermarks, "nexmark-auctions")
                            .setParallelism(spec.parallelism()));
        } else {
            DataStream<Event> events = env.fromSource(new EventSource(spec, Slice.Kind.ALL), watermarks, "nexmark")
                    .setParallelism(spec.parallelism());
            results = query(spec.query(), events);
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        DataStream<Object> any = (DataStream) results;
        any.sinkTo(new CountingSink(spec.id())).name("count");
    }

    static DataStream<?> query(Query query, DataStream<Event> events) {
        return switch (query) {
            case BOUND, Q1_BOUND -> events;
            case Q1 -> bids(events).map(Results::inEuros).returns(Bid.class).name("q1");
            case Q2 -> bids(events)
                    .filter(Results::q2Selects)
                    .map(b -> new AuctionPrice(b.auction(), b.price()))
                    .returns(AuctionPrice.class)
                    .name("q2");
            case Q3 -> {
                DataStream<Person> persons = events.filter(Results::q3Person)
                        .map(e -> (Person) e)
                        .returns(Person.class)
                        .name("q3-persons");
                DataStream<Auction> auctions = events.filter(Results::q3Auction)
                        .map(e -> (Auction) e)
                        .returns(Auction.class)
                        .name("q3-auctions");
                yield persons.connect(auctions)
                        .keyBy(Person::id, Auction::seller, Types.LONG)
                        .process(new IncrementalJoin())
                        .returns(PersonAuction.class)
                        .name("q3-join");
            }
            case Q5, Q5_100MS -> bids(events)
                    .keyBy(Bid::auction, Types.LONG)
                    .window(SlidingEventTimeWindows.of(query.size(), query.slide()))
                    .aggregate(new Counting(), new CountPerAuction())
                    .returns(AuctionCount.class)
                    .name("bids-per-auction")
                    .keyBy(AuctionCount::end, Types.LONG)
                    .window(TumblingEventTimeWindows.of(query.slide()))
                    .reduce(Results::hotter)
                    .returns(AuctionCount.class)
                    .name("hottest")
                    .map(HotItem::of)
                    .returns(HotItem.class);
            case Q7 -> bids(events)
                    .keyBy(Bid::auction, Types.LONG)
                    .window(TumblingEventTimeWindows.of(query.size()))
                    .reduce(Results::higher, new HighestInWindow())
                    .returns(HighestBid.class)
                    .name("highest-per-auction")
                    .keyBy(HighestBid::end, Types.LONG)
                    .window(TumblingEventTimeWindows.of(query.size()))
                    .reduce((a, b) -> Results.higher(a.bid(), b.bid()) == a.bid() ? a : b)
                    .returns(HighestBid.class)
                    .name("highest");
            case Q8, Q8_BOUND -> throw new IllegalArgumentException("q8 reads two streams: see newUsers");
        };
    }

    /**
     * q8: persons and auctions from a source each (as on FastFlow-J), Flink's windowed join. The join
     * function sees the pair, not the window: the window's start comes from the person's time.
     */
    static DataStream<NewPerson> newUsers(
            StreamExecutionEnvironment env, RunSpec spec, WatermarkStrategy<Event> watermarks) {
        DataStream<Person> persons = env.fromSource(
                        new EventSource(spec, Slice.Kind.PERSONS), watermarks, "nexmark-persons")
                .setParallelism(spec.parallelism())
                .map(e -> (Person) e)
                .returns(Person.class);
        DataStream<Auction> auctions = env.fromSource(
                        new EventSource(spec, Slice.Kind.AUCTIONS), watermarks, "nexmark-auctions")
                .setParallelism(spec.parallelism())
                .map(e -> (Auction) e)
                .returns(Auction.class);
        long size = Query.Q8.sizeMillis;
        return persons.join(auctions)
                .where(Person::id, Types.LONG)
                .equalTo(Auction::seller)
                .window(TumblingEventTimeWindows.of(Query.Q8.size()))
                .apply(
                        (Person p, Auction a) ->
                                new NewPerson(p.id(), p.name(), Math.floorDiv(p.dateTime(), size) * size),
                        TypeInformation.of(NewPerson.class));
    }

    private static DataStream<Bid> bids(DataStream<Event> events) {
        return events.filter(e -> e instanceof Bid)
                .map(e -> (Bid) e)
                .returns(Bid.class)
                .name("bids");
    }

    /** A watermark {@code t - 1} at each new greatest event time {@code t}. */
    static final class AscendingWatermarks implements WatermarkGenerator<Event> {
        private long max = Long.MIN_VALUE;

        @Override
        public void onEvent(Event event, long timestamp, WatermarkOutput output) {
            if (timestamp > max) {
                max = timestamp;
                output.emitWatermark(new Watermark(timestamp - 1));
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }

    static final class Counting implements AggregateFunction<Bid, long[], Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Bid value, long[] acc) {
            acc[0]++;
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    static final class CountPerAuction extends ProcessWindowFunction<Long, AuctionCount, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context ctx, Iterable<Long> counts, Collector<AuctionCount> out) {
            TimeWindow w = ctx.window();
            out.collect(new AuctionCount(
                    w.getStart(), w.getEnd(), auction, counts.iterator().next()));
        }
    }

    static final class HighestInWindow extends ProcessWindowFunction<Bid, HighestBid, Long, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Long auction, Context ctx, Iterable<Bid> bids, Collector<HighestBid> out) {
            TimeWindow w = ctx.window();
            out.collect(new HighestBid(w.getStart(), w.getEnd(), bids.iterator().next()));
        }
    }

    /** q3: the person waits in keyed state for their auctions; auctions before the person wait in a list. */
    static final class IncrementalJoin extends KeyedCoProcessFunction<Long, Person, Auction, PersonAuction> {
        private static final long serialVersionUID = 1L;

        private transient ValueState<Person> person;
        private transient ListState<Auction> pending;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            person = getRuntimeContext().getState(new ValueStateDescriptor<>("person", Person.class));
            pending = getRuntimeContext().getListState(new ListStateDescriptor<>("pending", Auction.class));
        }

        @Override
        public void processElement1(Person p, Context ctx, Collector<PersonAuction> out) throws Exception {
            person.update(p);
            Iterable<Auction> waiting = pending.get();
            if (waiting != null) {
                for (Auction a : waiting) {
                    out.collect(PersonAuction.of(p, a));
                }
            }
            pending.clear();
        }

        @Override
        public void processElement2(Auction a, Context ctx, Collector<PersonAuction> out) throws Exception {
            Person p = person.value();
            if (p != null) {
                out.collect(PersonAuction.of(p, a));
            } else {
                pending.add(a);
            }
        }
    }

    /** Each instance hands its results to the run's {@link Tally}. */
    static final class CountingSink implements Sink<Object> {
        private static final long serialVersionUID = 1L;
        private final String runId;

        CountingSink(String runId) {
            this.runId = runId;
        }

        @Override
        public SinkWriter<Object> createWriter(WriterInitContext context) {
            Tally tally = Tally.of(runId);
            return new SinkWriter<>() {
                @Override
                public void write(Object element, Context context) {
                    tally.record(element);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    /** Splits would only say who reads what; reader i of n knows that already. */
    static final class NoSplit implements SourceSplit {
        @Override
        public String splitId() {
            return "all";
        }
    }

    static final class NoSplitSerializer implements SimpleVersionedSerializer<NoSplit> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(NoSplit split) {
            return new byte[0];
        }

        @Override
        public NoSplit deserialize(int version, byte[] serialized) {
            return new NoSplit();
        }
    }

    static final class NoStateSerializer implements SimpleVersionedSerializer<Void> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Void state) {
            return new byte[0];
        }

        @Override
        public Void deserialize(int version, byte[] serialized) {
            return null;
        }
    }

    static final class EventSource implements Source<Event, NoSplit, Void> {
        private static final long serialVersionUID = 1L;
        private final RunSpec spec;
        private final Slice.Kind kind;

        EventSource(RunSpec spec, Slice.Kind kind) {
            this.spec = spec;
            this.kind = kind;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public SplitEnumerator<NoSplit, Void> createEnumerator(SplitEnumeratorContext<NoSplit> context) {
            return new SplitEnumerator<>() {
                @Override
                public void start() {}

                @Override
                public void handleSplitRequest(int subtaskId, String requesterHostname) {}

                @Override
                public void addSplitsBack(List<NoSplit> splits, int subtaskId) {}

                @Override
                public void addReader(int subtaskId) {}

                @Override
                public Void snapshotState(long checkpointId) {
                    return null;
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public SplitEnumerator<NoSplit, Void> restoreEnumerator(SplitEnumeratorContext<NoSplit> context, Void state) {
            return createEnumerator(context);
        }

        @Override
        public SimpleVersionedSerializer<NoSplit> getSplitSerializer() {
            return new NoSplitSerializer();
        }

        @Override
        public SimpleVersionedSerializer<Void> getEnumeratorCheckpointSerializer() {
            return new NoStateSerializer();
        }

        @Override
        public SourceReader<Event, NoSplit> createReader(SourceReaderContext context) {
            Slice slice = spec.slice(context.getIndexOfSubtask(), context.currentParallelism(), kind);
            return new SourceReader<>() {
                @Override
                public void start() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Event> output) {
                    for (int n = 0; n < 256 && slice.hasNext(); n++) {
                        long wait = slice.nanosUntilNext();
                        if (wait > 0) {
                            LockSupport.parkNanos(Math.min(wait, 1_000_000));
                            return InputStatus.MORE_AVAILABLE;
                        }
                        output.collect(slice.next());
                    }
                    return slice.hasNext() ? InputStatus.MORE_AVAILABLE : InputStatus.END_OF_INPUT;
                }

                @Override
                public List<NoSplit> snapshotState(long checkpointId) {
                    return List.of();
                }

                @Override
                public CompletableFuture<Void> isAvailable() {
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                public void addSplits(List<NoSplit> splits) {}

                @Override
                public void notifyNoMoreSplits() {}

                @Override
                public void close() {}
            };
        }
    }
}
