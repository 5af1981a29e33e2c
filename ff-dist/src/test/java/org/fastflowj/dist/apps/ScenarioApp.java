package org.fastflowj.dist.apps;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;

/**
 * The proof's topologies as one program per scenario, for the multi-process tests: each prints one
 * {@code result: ...} line from the group that holds its result (or from the one process when no group
 * is selected), so a run as separate JVMs can be compared with a one-process run.
 *
 * <p>Arguments after DFF's: the scenario name ({@link #GROUPS} lists them with their groups).
 */
public final class ScenarioApp {
    /** Each scenario's groups, and the group that prints the result. */
    public static final Map<String, List<String>> GROUPS = Map.of(
            "pipeline2", List.of("A", "B"),
            "pipeline3", List.of("A", "B", "C"),
            "fig5", List.of("G1", "G2", "G3", "G4"),
            "wordcount", List.of("IN", "SPLIT", "COUNT", "OUT"),
            "vertical", List.of("SRC", "LEFT", "RIGHT", "SINK"),
            "horizontal", List.of("SRC", "G1", "G2", "SINK"),
            "loopInside", List.of("SRC", "FARM"),
            "loopAcross", List.of("SRC", "HEAD", "LAP"),
            "onDemandSinks", List.of("SOURCES", "SINKS"));

    static final Map<String, String> PRINTER = Map.of(
            "pipeline2", "B",
            "pipeline3", "C",
            "fig5", "G4",
            "wordcount", "OUT",
            "vertical", "SINK",
            "horizontal", "SINK",
            "loopInside", "FARM",
            "loopAcross", "HEAD",
            "onDemandSinks", "SINKS");

    private ScenarioApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        String scenario = args[0];
        StringBuilder result = new StringBuilder();
        BuildingBlock program = build(scenario, result);
        program.runAndWaitEnd();
        if (DFF.group().map(PRINTER.get(scenario)::equals).orElse(true)) {
            System.out.println("result: " + result);
        }
    }

    static BuildingBlock build(String scenario, StringBuilder result) {
        return switch (scenario) {
            case "pipeline2", "pipeline3" -> pipeline(scenario.equals("pipeline3"), result);
            case "fig5" -> figureFive(result);
            case "wordcount" -> wordCount(result);
            case "vertical", "horizontal" -> twoByTwo(scenario.equals("vertical"), result);
            case "loopInside" -> loopInside(result);
            case "loopAcross" -> loopAcross(result);
            case "onDemandSinks" -> onDemandSinks(result);
            default -> throw new IllegalArgumentException(
                    "unknown scenario " + scenario + "; known: " + GROUPS.keySet());
        };
    }

    private static Node<Void, Long> numbers(long n) {
        return Node.source(() -> LongStream.range(0, n).boxed().iterator());
    }

    private static BuildingBlock pipeline(boolean three, StringBuilder result) {
        Node<Void, Long> source = numbers(50_000);
        Node<Long, Long> square = Node.of(x -> x * x);
        long[] sum = new long[2];
        Node<Long, Void> sink = new Node<>() {
            @Override
            protected Void svc(Long x) {
                sum[0] += x;
                sum[1]++;
                return goOn();
            }

            @Override
            protected void svcEnd() {
                result.append("sum=").append(sum[0]).append(" count=").append(sum[1]);
            }
        };
        Pipeline pipe = new Pipeline(source, square, sink);
        if (three) {
            source.createGroup("A");
            square.createGroup("B");
            sink.createGroup("C");
        } else {
            pipe.createGroup("A").include(source);
            pipe.createGroup("B").include(square).include(sink);
        }
        return pipe;
    }

    /** Sends item i to output i % n. */
    static final class Spread extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long x) {
            sendOutTo(x, (int) (x % outputChannels()));
            return goOn();
        }
    }

    static final class Numbers extends MultiOutputNode<Void, Long> {
        private final long n;
        private long next;

        Numbers(long n) {
            this.n = n;
        }

        @Override
        protected Long svc(Void none) {
            if (next == n) {
                return eos();
            }
            long x = next++;
            sendOutTo(x, (int) (x % outputChannels()));
            return goOn();
        }
    }

    /** Tags each item with the R-Worker's id: the sink can tell who computed what. */
    static final class Tag extends Node<Long, Long> {
        @Override
        protected Long svc(Long x) {
            return x * 10 + id();
        }
    }

    /** Counts per input channel and per tag, sums; prints in svcEnd, in a fixed order. */
    static final class Gather extends MultiInputNode<Long, Void> {
        private final StringBuilder result;
        private final Map<Integer, Long> perChannel = new TreeMap<>();
        private final List<String> ends = new ArrayList<>();
        private long sum;

        Gather(StringBuilder result) {
            this.result = result;
        }

        @Override
        protected Void svc(Long x) {
            perChannel.merge(inputChannel(), 1L, Long::sum);
            sum += x;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add("eos" + channel);
        }

        @Override
        protected void svcEnd() {
            ends.sort(null);
            result.append("inputs=")
                    .append(inputChannels())
                    .append(" perChannel=")
                    .append(perChannel)
                    .append(" sum=")
                    .append(sum)
                    .append(" ends=")
                    .append(ends);
        }
    }

    private static BuildingBlock figureFive(StringBuilder result) {
        Numbers source = new Numbers(20_000);
        Spread l0 = new Spread(), l1 = new Spread();
        Tag r0 = new Tag(), r1 = new Tag(), r2 = new Tag(), r3 = new Tag();
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(r0, r1, r2, r3);
        Gather sink = new Gather(result);
        source.createGroup("G1");
        a2a.createGroup("G2").include(l0).include(r0).include(r1);
        a2a.createGroup("G3").include(l1).include(r2).include(r3);
        sink.createGroup("G4");
        return new Pipeline(source, a2a, sink);
    }

    private static BuildingBlock twoByTwo(boolean vertical, StringBuilder result) {
        Numbers source = new Numbers(10_000);
        Spread l0 = new Spread(), l1 = new Spread();
        Tag r0 = new Tag(), r1 = new Tag();
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(r0, r1);
        Gather sink = new Gather(result);
        source.createGroup("SRC");
        sink.createGroup("SINK");
        if (vertical) {
            a2a.createGroup("LEFT").include(l0).include(l1);
            a2a.createGroup("RIGHT").include(r0).include(r1);
        } else {
            a2a.createGroup("G1").include(l0).include(r0);
            a2a.createGroup("G2").include(l1).include(r1);
        }
        return new Pipeline(source, a2a, sink);
    }

    /** Splits lines into words, each word to the counter its hash picks. */
    static final class Splitter extends MultiOutputNode<String, String> {
        @Override
        protected String svc(String line) {
            for (String w : line.split(" ")) {
                sendOutTo(w, Math.floorMod(w.hashCode(), outputChannels()));
            }
            return goOn();
        }
    }

    /** Counts words; each counter sends its counts to the sink at the end. */
    static final class Counter extends Node<String, String> {
        private final Map<String, Long> counts = new HashMap<>();

        @Override
        protected String svc(String w) {
            counts.merge(w, 1L, Long::sum);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            counts.forEach((w, c) -> sendOut(w + "=" + c));
        }
    }

    private static BuildingBlock wordCount(StringBuilder result) {
        List<String> lines = new ArrayList<>();
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 4_000; i++) {
            StringBuilder line = new StringBuilder("w" + random.nextInt(300));
            for (int k = random.nextInt(9); k > 0; k--) {
                line.append(" w").append(random.nextInt(1 + random.nextInt(300)));
            }
            lines.add(line.toString());
        }
        Node<Void, String> source = Node.source(lines);
        Splitter s0 = new Splitter(), s1 = new Splitter();
        Counter c0 = new Counter(), c1 = new Counter(), c2 = new Counter();
        AllToAll a2a = new AllToAll().firstSet(s0, s1).secondSet(c0, c1, c2);
        Map<String, Long> all = new TreeMap<>();
        Node<String, Void> sink = new MultiInputNode<>() {
            @Override
            protected Void svc(String wc) {
                int eq = wc.indexOf('=');
                all.merge(wc.substring(0, eq), Long.parseLong(wc.substring(eq + 1)), Long::sum);
                return goOn();
            }

            @Override
            protected void svcEnd() {
                result.append("words=").append(all.size()).append(" digest=").append(all.hashCode());
            }
        };
        source.createGroup("IN");
        a2a.createGroup("SPLIT").include(s0).include(s1);
        a2a.createGroup("COUNT").include(c0).include(c1).include(c2);
        sink.createGroup("OUT");
        return new Pipeline(source, a2a, sink);
    }

    private static BuildingBlock loopInside(StringBuilder result) {
        StreamLoopHead emitter = new StreamLoopHead(x -> x * 8, x -> x % 2 == 0) { // halved until odd
                    @Override
                    protected void svcEnd() {
                        result.append("retired=")
                                .append(retired.size())
                                .append(" sum=")
                                .append(sum(retired));
                    }
                };
        Farm farm =
                Farm.of(3, () -> Node.of((Long x) -> x / 2)).emitter(emitter).wrapAround();
        Node<Void, Long> source = Node.source(
                () -> LongStream.range(0, 3_000).map(x -> 2 * x + 1).boxed().iterator());
        source.createGroup("SRC");
        farm.createGroup("FARM");
        return new Pipeline(source, farm);
    }

    private static BuildingBlock loopAcross(StringBuilder result) {
        StreamLoopHead head = new StreamLoopHead(x -> x, x -> false) {
            @Override
            protected void svcEnd() {
                result.append("back=").append(retired.size()).append(" sum=").append(sum(retired));
            }
        };
        Node<Long, Long> lap = Node.of(x -> -x);
        Pipeline loop = new Pipeline(head, lap).wrapAround();
        Node<Void, Long> source = numbers(5_000);
        source.createGroup("SRC");
        loop.createGroup("HEAD").include(head);
        loop.createGroup("LAP").include(lap);
        return new Pipeline(source, loop);
    }

    /** Sleeps {@code millis} per item; the sinks' counts go to {@code result} as each ends. */
    static final class SlowSink extends Node<Long, Void> {
        private final long millis;
        private final long[] counts;
        private final int index;
        private final StringBuilder result;
        private long processed;

        SlowSink(long millis, long[] counts, int index, StringBuilder result) {
            this.millis = millis;
            this.counts = counts;
            this.index = index;
            this.result = result;
        }

        @Override
        protected Void svc(Long task) throws InterruptedException {
            Thread.sleep(millis);
            processed++;
            return goOn();
        }

        @Override
        protected void svcEnd() {
            synchronized (counts) {
                counts[index] = processed;
                result.setLength(0);
                result.append("sinks=").append(java.util.Arrays.toString(counts));
            }
        }
    }

    /**
     * FastFlow's tests/distributed/test_a2aOnDemand2, with shorter tasks: 2 sources x 20 tasks, on demand, to
     * sinks taking 20, 40 and 60 ms per task; the sources in one group, the sinks in another.
     */
    private static BuildingBlock onDemandSinks(StringBuilder result) {
        List<Node<Void, Long>> sources = List.of(numbers(20), numbers(20));
        long[] counts = new long[3];
        List<SlowSink> sinks = List.of(
                new SlowSink(20, counts, 0, result),
                new SlowSink(40, counts, 1, result),
                new SlowSink(60, counts, 2, result));
        AllToAll a2a = new AllToAll().firstSet(sources).secondSet(sinks).onDemand();
        a2a.createGroup("SOURCES").include(sources.get(0)).include(sources.get(1));
        a2a.createGroup("SINKS").include(sinks.get(0)).include(sinks.get(1)).include(sinks.get(2));
        return new Pipeline(a2a);
    }

    private static long sum(List<Long> items) {
        synchronized (items) {
            return items.stream().mapToLong(Long::longValue).sum();
        }
    }
}
