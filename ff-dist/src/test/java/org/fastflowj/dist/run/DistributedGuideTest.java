package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The code of docs/distributed.md, run as tests (the guide's snippets are copied from here). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedGuideTest {
    @AfterEach
    void reset() {
        DFF.reset();
    }

    record Reading(String sensor, double value) {}

    static final class Source extends MultiOutputNode<Void, Reading> {
        private int next;

        @Override
        protected Reading svc(Void none) {
            if (next == 1_000) {
                return eos();
            }
            int i = next++;
            sendOutTo(new Reading("s" + i % 8, i), i % outputChannels());
            return goOn();
        }
    }

    /** L-Worker: routes each reading by sensor, so one R-Worker sees all of a sensor's readings. */
    static final class BySensor extends MultiOutputNode<Reading, Reading> {
        @Override
        protected Reading svc(Reading r) {
            sendOutTo(r, Math.floorMod(r.sensor().hashCode(), outputChannels()));
            return goOn();
        }
    }

    static final class Average extends Node<Reading, Reading> {
        private final Map<String, double[]> sums = new java.util.HashMap<>();

        @Override
        protected Reading svc(Reading r) {
            double[] s = sums.computeIfAbsent(r.sensor(), k -> new double[2]);
            s[0] += r.value();
            s[1]++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sums.forEach((sensor, s) -> sendOut(new Reading(sensor, s[0] / s[1])));
        }
    }

    static final class Sink extends MultiInputNode<Reading, Void> {
        final Map<String, Double> averages = new ConcurrentHashMap<>();

        @Override
        protected Void svc(Reading r) {
            averages.put(r.sensor(), r.value());
            return goOn();
        }
    }

    /** The paper's Fig. 5 shape, grouped as in the paper: G1 | G2 = {L0, R0, R1} | G3 = {L1, R2, R3} | G4. */
    static Pipeline figureFive(Sink sink) {
        // tag::groups[]
        Source source = new Source();
        BySensor l0 = new BySensor(), l1 = new BySensor();
        Average r0 = new Average(), r1 = new Average(), r2 = new Average(), r3 = new Average();
        AllToAll a2a = new AllToAll().firstSet(l0, l1).secondSet(r0, r1, r2, r3);
        Pipeline pipe = new Pipeline(source, a2a, sink);

        source.createGroup("G1");
        a2a.createGroup("G2").include(l0).include(r0).include(r1);
        a2a.createGroup("G3").include(l1).include(r2).include(r3);
        sink.createGroup("G4");
        // end::groups[]
        return pipe;
    }

    @Test
    void shouldComputeTheSameAveragesInOneProcessAndInFourGroups() throws Exception {
        Sink alone = new Sink();
        figureFive(alone).runAndWaitEnd();

        Sink grouped = new Sink();
        DFF.register(Reading.class);
        LocalCluster.run(
                figureFive(grouped),
                LocalCluster.config(List.of("G1", "G2", "G3", "G4"), ""),
                DFF.settings().serialization(),
                org.fastflowj.core.RunOptions.defaults(),
                40);

        assertThat(grouped.averages).hasSize(8).isEqualTo(alone.averages);
    }

    /** A program's main: the same code runs whole, or one group of it per process. */
    static final class Main {
        // tag::main[]
        public static void main(String[] args) {
            args = DFF.init(args); // takes --DFF_GName=G2 --DFF_Config=app.json, returns the rest
            DFF.register(Reading.class); // types that cross groups, in the same order everywhere
            Sink sink = new Sink();
            figureFive(sink).runAndWaitEnd(); // with a group: only that group; without: everything
            if (DFF.group().map("G4"::equals).orElse(true)) {
                System.out.println(sink.averages); // printed by the group that holds the sink
            }
        }
        // end::main[]
    }

    @Test
    void shouldRunTheWholeProgramWhenNoGroupIsSelected() {
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            Main.main(new String[] {"--verbose"});
        } finally {
            System.setOut(original);
        }

        assertThat(DFF.group()).isEmpty();
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("s0=")
                .contains("s7=");
    }

    // tag::serializer[]
    /** A zero-copy layout: the array is written in one bulk copy, no Kryo, no per-element work. */
    static final class MatrixSerializer implements ItemSerializer<double[]> {
        @Override
        public void write(double[] m, WireOutput out) {
            out.writeInt(m.length);
            out.writeDoubles(m, 0, m.length);
        }

        @Override
        public double[] read(WireInput in) {
            double[] m = new double[in.readInt()];
            in.readDoubles(m, 0, m.length);
            return m;
        }
    }
    // end::serializer[]

    @Test
    void shouldCheckInOneProcessThatEveryItemCrossesGroups() {
        // tag::check[]
        DFF.checkSerialization(true); // or -Dfastflowj.dist.checkSerialization=true
        DFF.serializer(double[].class, new MatrixSerializer());
        DFF.register(Reading.class);
        Sink sink = new Sink();
        figureFive(sink).runAndWaitEnd(); // every item goes through the serializer: a copy arrives
        // end::check[]
        assertThat(sink.averages).hasSize(8);
    }
}
