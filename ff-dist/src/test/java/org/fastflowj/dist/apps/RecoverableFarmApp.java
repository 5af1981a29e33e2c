package org.fastflowj.dist.apps;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.dist.DFF;

/**
 * A farm of four workers for the recovery tests: the emitter, the collector (if any) and worker 0 in group
 * M, workers 1, 2 and 3 in groups W1, W2 and W3.
 *
 * <p>Arguments after DFF's: {@code shape} ({@code master-worker}: the emitter is a master that sends
 * {@code items} tasks and takes the results back by feedback; {@code master-worker-on-demand}: the same,
 * on-demand; {@code word-count}: the emitter sends lines,
 * the workers count their words, the collector adds the counts up), {@code items}, {@code workMicros} per
 * item in a worker, {@code recoverable} ({@code true}/{@code false}). Group M prints {@code progress} once
 * a quarter of the results arrived and {@code RESULT: ...} at the end.
 */
public final class RecoverableFarmApp {
    static final List<String> GROUPS = List.of("M", "W1", "W2", "W3");

    private RecoverableFarmApp() {}

    public static void main(String[] args) throws Exception {
        args = DFF.init(args);
        String result = run(args[0], Integer.parseInt(args[1]), Long.parseLong(args[2]), Boolean.parseBoolean(args[3]));
        if (DFF.group().map("M"::equals).orElse(true)) {
            System.out.println("RESULT: " + result);
        }
    }

    /** Runs the farm (in one process when no group is selected) and returns what group M computed. */
    static String run(String shape, int items, long workMicros, boolean recoverable) {
        StringBuilder out = new StringBuilder();
        Farm farm;
        List<Node<?, ?>> workers;
        if (shape.startsWith("master-worker")) {
            workers = List.of(
                    new Square(workMicros), new Square(workMicros), new Square(workMicros), new Square(workMicros));
            farm = Farm.of(workers).emitter(new Master(items, out)).wrapAround();
            if (shape.endsWith("on-demand")) {
                farm.onDemand();
            }
        } else {
            workers = List.of(
                    new WordCounter(workMicros),
                    new WordCounter(workMicros),
                    new WordCounter(workMicros),
                    new WordCounter(workMicros));
            farm = Farm.of(workers).emitter(new Lines(items)).collector(new Totals(items, out));
        }
        if (recoverable) {
            farm.recoverable();
        }
        farm.createGroup("M");
        for (int i = 1; i < workers.size(); i++) {
            farm.createGroup("W" + i).include(workers.get(i));
        }
        farm.runAndWaitEnd();
        return out.toString();
    }

    private static void work(long micros) {
        if (micros > 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(micros)); // stands for computing
        }
    }

    /** Sends the tasks, then takes each result back (once: a task answered twice is reported). */
    static final class Master extends Node<long[], Long> {
        private final int items;
        private final Answers answers;
        private final StringBuilder out;

        Master(int items, StringBuilder out) {
            this.items = items;
            this.answers = new Answers(items);
            this.out = out;
        }

        @Override
        protected Long svc(long[] result) {
            if (result == null) {
                for (long task = 0; task < items; task++) {
                    sendOut(task);
                }
                return goOn();
            }
            answers.take(result);
            if (answers.complete()) {
                out.append(answers.describe());
                return eos();
            }
            return goOn();
        }
    }

    /** One result per task: the task and its square. */
    static final class Square extends Node<Long, long[]> {
        private final long workMicros;

        Square(long workMicros) {
            this.workMicros = workMicros;
        }

        @Override
        protected long[] svc(Long task) {
            work(workMicros);
            return new long[] {task, task * task};
        }
    }

    /** Lines of words, a source. */
    static final class Lines extends Node<Void, String> {
        private final int items;

        Lines(int items) {
            this.items = items;
        }

        @Override
        protected String svc(Void none) {
            for (int i = 0; i < items; i++) {
                sendOut("line" + i + " w" + (i % 7) + " w" + (i % 13) + " w" + (i % 7));
            }
            return eos();
        }
    }

    /** The words of a line, counted. */
    static final class WordCounter extends Node<String, HashMap<String, Integer>> {
        private final long workMicros;

        WordCounter(long workMicros) {
            this.workMicros = workMicros;
        }

        @Override
        protected HashMap<String, Integer> svc(String line) {
            work(workMicros);
            HashMap<String, Integer> counts = new HashMap<>();
            for (String word : line.split(" ")) {
                counts.merge(word, 1, Integer::sum);
            }
            return counts;
        }
    }

    /** Adds the counts up; a line counted twice shows in its own word's count. */
    static final class Totals extends MultiInputNode<Map<String, Integer>, Void> {
        private final int items;
        private final StringBuilder out;
        private final TreeMap<String, Integer> totals = new TreeMap<>();
        private int results;

        Totals(int items, StringBuilder out) {
            this.items = items;
            this.out = out;
        }

        @Override
        protected Void svc(Map<String, Integer> counts) {
            counts.forEach((word, n) -> totals.merge(word, n, Integer::sum));
            Answers.progress(++results, items);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            long lines =
                    totals.keySet().stream().filter(w -> w.startsWith("line")).count();
            long repeated = totals.entrySet().stream()
                    .filter(e -> e.getKey().startsWith("line") && e.getValue() != 1)
                    .count();
            out.append("lines=")
                    .append(lines)
                    .append(" repeated=")
                    .append(repeated)
                    .append(" words=")
                    .append(totals.entrySet().stream()
                            .filter(e -> !e.getKey().startsWith("line"))
                            .toList());
        }
    }
}
