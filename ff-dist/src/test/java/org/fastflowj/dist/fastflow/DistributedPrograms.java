package org.fastflowj.dist.fastflow;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.run.LocalCluster;

/**
 * Shared pieces of the tests that mirror FastFlow's tests/distributed programs: running a program in one process or as
 * in-JVM groups on free loopback ports, the task type most of them pass around, and a thread-safe log of what
 * the nodes saw.
 */
public final class DistributedPrograms {
    private DistributedPrograms() {}

    /** Items of this package (records such as {@link Task}) may cross groups. */
    public static final SerializationConfig SERIALIZATION = SerializationConfig.builder()
            .allowPackage("org.fastflowj.dist.fastflow")
            .build();

    /**
     * Runs {@code root} whole in this process when {@code groups} is empty, else runs every one of {@code groups}
     * in this JVM (each its own transport) with the extra top-level config JSON {@code topLevel}.
     */
    public static void run(BuildingBlock root, String topLevel, List<String> groups) throws Exception {
        if (groups.isEmpty()) {
            root.runAndWaitEnd();
            return;
        }
        LocalCluster.run(root, LocalCluster.config(groups, topLevel), SERIALIZATION, RunOptions.defaults(), 45);
    }

    /**
     * FastFlow's {@code myTask_t} (a string and a pair {@code t}, {@code f}), plus the index the source gave it
     * ({@code seq}), so that a sink can tell which task it holds.
     */
    public record Task(String str, long seq, long t, float f) {
        public static Task hello(long i) {
            return new Task("Hello", i, i, i);
        }

        public Task append(String s) {
            return new Task(str + s, seq, t, f);
        }

        public Task plus(long d) {
            return new Task(str, seq, t + d, f + d);
        }

        public Task named(String s) {
            return new Task(s, seq, t, f);
        }
    }

    /** What the nodes of one run saw, by node name; thread-safe, as nodes of every group share it in one JVM. */
    public static final class Log {
        public final Map<String, List<String>> events = new ConcurrentSkipListMap<>();
        public final Map<String, Long> counts = new ConcurrentHashMap<>();

        public void event(String node, String what) {
            events.computeIfAbsent(node, k -> new CopyOnWriteArrayList<>()).add(what);
        }

        public void count(String what) {
            counts.merge(what, 1L, Long::sum);
        }

        public long count(String what, long otherwise) {
            return counts.getOrDefault(what, otherwise);
        }

        /** Every event, each node's list sorted: the same in any run whose events do not depend on timing. */
        public Map<String, List<String>> sortedEvents() {
            Map<String, List<String>> sorted = new java.util.TreeMap<>();
            events.forEach((k, v) -> sorted.put(k, v.stream().sorted().toList()));
            return sorted;
        }
    }

    /** FastFlow's usual first stage: sends {@code tasks} "Hello" tasks, numbered from 0, then ends. */
    public static final class HelloSource extends MultiOutputNode<Void, Task> {
        private final long tasks;

        public HelloSource(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Task svc(Void none) {
            for (long i = 0; i < tasks; i++) {
                sendOut(Task.hello(i));
            }
            return eos();
        }
    }

    /** FastFlow's usual second stage: appends " World". */
    public static final class AppendWorld extends Node<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.append(" World");
        }
    }
}
