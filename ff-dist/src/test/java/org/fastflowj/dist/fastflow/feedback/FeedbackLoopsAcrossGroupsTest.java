package org.fastflowj.dist.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's feedback programs in tests/distributed: test_group21.cpp (a wrapped 3x5 all-to-all in
 * one group between a source group and a sink group), test_group26.cpp (a wrapped pipeline whose two stages are
 * in two groups), test_group23.cpp (an outer loop across three groups around an inner loop), test_group25.cpp
 * (a wrapped pipeline(node, a2a) cut between them) and test_group27.cpp (a wrapped all-to-all cut horizontally,
 * whose R-Workers answer the other group's L-Worker). Every task comes back as often as the program expects and
 * every node ends, as in one process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FeedbackLoopsAcrossGroupsTest {
    private static final Task START = new Task("start", -1, -1, -1);

    /** Loop-head half of an L-Worker: passes input on; ends after {@code tasks} fed-back tasks. */
    static final class FdbInput extends MultiInputNode<Task, Task> {
        private long tasks;

        FdbInput(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Task svc(Task t) {
            if (!fromFeedback()) {
                return t;
            }
            sendOut(t);
            return --tasks > 0 ? goOn() : eos();
        }
    }

    static final class World extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.append(" World");
        }
    }

    static final class AddId extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.plus(id());
        }
    }

    /** Sends a first-lap task back to every L-Worker as "Feedback!", and a second-lap one forward. */
    static final class FdbOutput extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            if (t.str().equals("Hello World")) {
                for (int i = 0; i < feedbackChannels(); i++) {
                    sendFeedbackTo(t.named("Feedback!"), i);
                }
                return goOn();
            }
            sendOutTo(t, 0);
            return goOn();
        }
    }

    static final class Sink extends MultiInputNode<Task, Void> {
        final List<Task> received = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> ends = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Void svc(Task t) {
            received.add(t);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add(channel);
        }
    }

    /** test_group21: every task comes back to each of the 3 L-Workers once, so the sink gets 3 x 100. */
    private static List<Long> wrappedAllToAll(boolean grouped) throws Exception {
        int tasks = 100;
        int nl = 3;
        int nr = 5;
        List<BuildingBlock> l = new ArrayList<>();
        for (int i = 0; i < nl; i++) {
            l.add(Combiner.of(new FdbInput(tasks), new World()));
        }
        List<BuildingBlock> r = new ArrayList<>();
        for (int i = 0; i < nr; i++) {
            r.add(Combiner.of(new AddId(), new FdbOutput()));
        }
        HelloSource n1 = new HelloSource(tasks);
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r).wrapAround();
        Sink n4 = new Sink();
        Pipeline pipe = new Pipeline(n1, a2a, n4);
        if (grouped) {
            n1.createGroup("G1");
            a2a.createGroup("G2");
            n4.createGroup("G3");
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2", "G3") : List.of());

        assertThat(n4.received).hasSize(nl * tasks).allSatisfy(t -> assertThat(t.str())
                .isEqualTo("Feedback! World"));
        List<Long> seqs = n4.received.stream().map(Task::seq).sorted().toList();
        List<Long> expected = new ArrayList<>();
        LongStream.range(0, tasks).forEach(i -> {
            for (int k = 0; k < nl; k++) {
                expected.add(i);
            }
        });
        assertThat(seqs).isEqualTo(expected);
        assertThat(n4.ends).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        return seqs;
    }

    @Test
    void shouldReturnEveryTaskToEveryLWorkerOfAWrappedAllToAllGroup() throws Exception {
        assertThat(wrappedAllToAll(true)).isEqualTo(wrappedAllToAll(false));
    }

    /**
     * Head of test_group26's and test_group23's inner loop: decorates input tasks, forwards fed-back ones, and
     * ends when its input ended and every task came back.
     */
    static final class Node2 extends MultiInputNode<Task, Task> {
        private long missing;
        private boolean inputEnded;
        private final Log log;

        Node2(long tasks, Log log) {
            this.missing = tasks;
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            if (!fromFeedback()) {
                log.count("node2 input");
                return t.append(" World");
            }
            log.count("node2 feedback");
            missing--;
            sendOut(t);
            return missing == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("node2", "eos " + channel);
            inputEnded = true;
            if (missing == 0) {
                sendOut(eos());
                missing = -1;
            }
        }
    }

    /** Sends a first-lap task back (feedback channel 0) as "Feedback!" with t + 1, a second-lap one forward. */
    static final class Node3 extends MultiOutputNode<Task, Task> {
        private final Log log;

        Node3(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            if (t.str().equals("Hello World")) {
                log.count("node3 input");
                sendFeedbackTo(t.named("Feedback!").plus(1), 0);
                return goOn();
            }
            log.count("node3 feedback");
            sendOutTo(t, 0);
            return goOn();
        }
    }

    private static void assertEveryTaskCameBackOnce(Sink n4, Log log, long tasks) {
        assertThat(n4.received)
                .extracting(Task::seq)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, tasks).boxed().toList());
        assertThat(n4.received).allSatisfy(t -> {
            assertThat(t.str()).isEqualTo("Feedback!");
            assertThat(t.t()).isEqualTo(t.seq() + 1);
        });
        assertThat(log.counts)
                .containsEntry("node2 input", tasks)
                .containsEntry("node2 feedback", tasks)
                .containsEntry("node3 input", tasks)
                .containsEntry("node3 feedback", tasks);
        assertThat(n4.ends).containsExactly(0);
    }

    /** test_group26: G1 = n1, G2 = n2 and G3 = n3 (the loop split across two groups), G4 = n4; batches of 1-3. */
    private static Log loopSplitInTwoGroups(boolean grouped) throws Exception {
        long tasks = 20;
        Log log = new Log();
        HelloSource n1 = new HelloSource(tasks);
        Node2 n2 = new Node2(tasks, log);
        Node3 n3 = new Node3(log);
        Sink n4 = new Sink();
        Pipeline pipe1 = new Pipeline(n2, n3).wrapAround();
        Pipeline pipe = new Pipeline(n1, pipe1, n4);
        if (grouped) {
            n1.createGroup("G1");
            pipe1.createGroup("G2").include(n2);
            pipe1.createGroup("G3").include(n3);
            n4.createGroup("G4");
        }
        DistributedPrograms.run(pipe, "\"batchSize\": 1", grouped ? List.of("G1", "G2", "G3", "G4") : List.of());
        assertEveryTaskCameBackOnce(n4, log, tasks);
        assertThat(log.events.get("node2")).containsExactly("eos 0");
        return log;
    }

    @Test
    void shouldCloseALoopSplitAcrossTwoGroupsAfterEveryTaskCameBack() throws Exception {
        assertThat(loopSplitInTwoGroups(true).sortedEvents())
                .isEqualTo(loopSplitInTwoGroups(false).sortedEvents());
    }

    /** test_group23's outer loop head: sends tasks 10 at a time, ends when all came back round the outer loop. */
    static final class Client extends Node<Task, Task> {
        private final long tasks;
        private long toSend;
        final List<Task> back = Collections.synchronizedList(new ArrayList<>());

        Client(long tasks) {
            this.tasks = tasks;
            this.toSend = tasks;
        }

        @Override
        protected Task svc(Task in) {
            for (long k = 0; k < 10 && toSend > 0; k++, toSend--) {
                sendOut(Task.hello(tasks - toSend));
            }
            if (in != null) {
                back.add(in);
            }
            return back.size() == tasks ? eos() : goOn();
        }
    }

    static final class Counter extends Node<Task, Task> {
        private final Log log;

        Counter(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            log.count("node4");
            return t;
        }
    }

    /** test_group23: G1 = n1, G2 = the inner loop (n2, n3), G3 = n4, whose output goes back to n1. */
    private static List<Task> nestedLoops(boolean grouped) throws Exception {
        long tasks = 100;
        Log log = new Log();
        Client n1 = new Client(tasks);
        Node2 n2 = new Node2(tasks, log);
        Node3 n3 = new Node3(log);
        Counter n4 = new Counter(log);
        Pipeline pipe1 = new Pipeline(n2, n3).wrapAround();
        Pipeline pipe = new Pipeline(n1, pipe1, n4).wrapAround();
        if (grouped) {
            n1.createGroup("G1");
            pipe1.createGroup("G2");
            n4.createGroup("G3");
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2", "G3") : List.of());

        assertThat(log.counts.get("node4")).isEqualTo(tasks);
        assertThat(n1.back)
                .extracting(Task::seq)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, tasks).boxed().toList());
        assertThat(n1.back)
                .allSatisfy(t -> assertThat(t).isEqualTo(new Task("Feedback!", t.seq(), t.seq() + 1, t.seq() + 1)));
        assertThat(log.events.get("node2")).containsExactly("eos 0");
        return n1.back.stream()
                .sorted(java.util.Comparator.comparingLong(Task::seq))
                .toList();
    }

    @Test
    void shouldRunALoopInsideALoopThatCrossesThreeGroups() throws Exception {
        assertThat(nestedLoops(true)).isEqualTo(nestedLoops(false));
    }

    /** test_group25's Node1Helper: turns the start call into START, passes the rest on. */
    static final class StartHelper extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task in) {
            return in == null ? START : in;
        }
    }

    /** test_group25's Node1: 10 tasks at the start, then counts them back and ends. */
    static final class Node1 extends MultiOutputNode<Task, Task> {
        private final long tasks;
        final List<Task> back = Collections.synchronizedList(new ArrayList<>());

        Node1(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Task svc(Task in) {
            if (in.equals(START)) {
                for (long i = 0; i < tasks; i++) {
                    sendOut(Task.hello(i));
                }
                return goOn();
            }
            back.add(in);
            return back.size() == tasks ? eos() : goOn();
        }
    }

    static final class Pass extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.append(" World");
        }
    }

    static final class Back extends MultiInputNode<Task, Task> {
        private final Log log;

        Back(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            log.count("R" + id());
            return t.named("Feedback!").plus(1);
        }
    }

    /** test_group25: pipe(comb(helper, n1) in G1, a2a(2 x 3) in G2).wrapAround(): the R-Workers answer n1. */
    private static List<Task> headAndAllToAll(boolean grouped) throws Exception {
        long tasks = 10;
        Log log = new Log();
        Node1 n1 = new Node1(tasks);
        Combiner<Task, Task> head = Combiner.of(new StartHelper(), n1);
        AllToAll a2a =
                new AllToAll().firstSet(new Pass(), new Pass()).secondSet(new Back(log), new Back(log), new Back(log));
        Pipeline pipe = new Pipeline(head, a2a).wrapAround();
        if (grouped) {
            pipe.createGroup("G1").include(head);
            pipe.createGroup("G2").include(a2a);
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2") : List.of());

        assertThat(n1.back).hasSize((int) tasks).allSatisfy(t -> assertThat(t)
                .isEqualTo(new Task("Feedback!", t.seq(), t.seq() + 1, t.seq() + 1)));
        assertThat(n1.back).extracting(Task::seq).doesNotHaveDuplicates();
        assertThat(log.counts.values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(tasks);
        assertThat(log.counts.keySet()).allMatch(k -> k.matches("R[0-2]"));
        return n1.back.stream()
                .sorted(java.util.Comparator.comparingLong(Task::seq))
                .toList();
    }

    @Test
    void shouldAnswerTheLoopHeadFromAnAllToAllInAnotherGroup() throws Exception {
        assertThat(headAndAllToAll(true)).isEqualTo(headAndAllToAll(false));
    }

    /** test_group27's AdapterSx / AdapterDx: multi-input front of a combiner; logs each channel's end. */
    static final class Adapter<T> extends MultiInputNode<T, T> {
        private final Log log;
        private final String name;
        private final T start;

        Adapter(Log log, String name, T start) {
            this.log = log;
            this.name = name;
            this.start = start;
        }

        @Override
        protected T svc(T in) {
            if (in == null) {
                return start;
            }
            log.event(name + id(), (fromFeedback() ? "feedback " : "input ") + inputChannel() + ": " + in);
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            log.event(name + id(), "eos " + channel);
        }
    }

    /** L-Worker: at the start sends a list to the R-Worker of its own index; ends at the first answer. */
    static final class Asker extends MultiOutputNode<Task, List<Task>> {
        @Override
        protected List<Task> svc(Task t) {
            if (t.equals(START)) {
                sendOutTo(new ArrayList<>(List.of(new Task("test", 10, 10, 0))), id());
                return goOn();
            }
            return eos();
        }
    }

    /** R-Worker: answers every L-Worker but the one of its own index. */
    static final class Answerer extends MultiOutputNode<List<Task>, Task> {
        @Override
        protected Task svc(List<Task> in) {
            for (int i = 0; i < feedbackChannels(); i++) {
                if (i != id()) {
                    sendFeedbackTo(new Task("test", 12, 12, 0), i);
                }
            }
            return goOn();
        }
    }

    /** test_group27: a2a(comb(adapter, Asker) x 2 | comb(adapter, Answerer) x 2).wrapAround(), G1 = {L0, R0}. */
    private static Log crossingAnswers(boolean grouped) throws Exception {
        Log log = new Log();
        List<BuildingBlock> l = new ArrayList<>();
        List<BuildingBlock> r = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            l.add(Combiner.of(new Adapter<Task>(log, "L", START), new Asker()));
            r.add(Combiner.of(new Adapter<List<Task>>(log, "R", null), new Answerer()));
        }
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r).wrapAround();
        if (grouped) {
            a2a.createGroup("G1").include(l.get(0)).include(r.get(0));
            a2a.createGroup("G2").include(l.get(1)).include(r.get(1));
        }
        DistributedPrograms.run(a2a, "\"batchSize\": 1", grouped ? List.of("G1", "G2") : List.of());

        String answer = new Task("test", 12, 12, 0).toString();
        String list = List.of(new Task("test", 10, 10, 0)).toString();
        assertThat(log.events.get("L0")).containsExactly("feedback 1: " + answer);
        assertThat(log.events.get("L1")).containsExactly("feedback 0: " + answer);
        assertThat(log.events.get("R0")).containsExactlyInAnyOrder("input 0: " + list, "eos 0", "eos 1");
        assertThat(log.events.get("R1")).containsExactlyInAnyOrder("input 1: " + list, "eos 0", "eos 1");
        return log;
    }

    @Test
    void shouldAnswerTheOtherGroupsLWorkerInAWrappedAllToAllCutHorizontally() throws Exception {
        assertThat(crossingAnswers(true).sortedEvents())
                .isEqualTo(crossingAnswers(false).sortedEvents());
    }
}
