package org.fastflowj.examples.masterworker;

import java.io.PrintStream;
import org.fastflowj.core.Node;

/**
 * The master, only L-Worker of the all-to-all and head of its loop: sends every task (on demand: a task
 * goes to a worker with a free slot), then counts the workers' answers, each the index of the worker that
 * computed the task, and ends when all came back. At the end it prints the tasks computed per group.
 */
final class Master extends Node<Integer, Task> {
    private final int tasks;
    private final int payloadBytes;
    private final int workersPerGroup;
    private final long[] perGroup;
    private final PrintStream out;
    private int received;

    Master(int tasks, int payloadBytes, int groups, int workersPerGroup, PrintStream out) {
        this.tasks = tasks;
        this.payloadBytes = payloadBytes;
        this.workersPerGroup = workersPerGroup;
        this.perGroup = new long[groups];
        this.out = out;
    }

    @Override
    protected Task svc(Integer worker) {
        if (worker == null) { // the loop head's first call: hand out the work
            byte[] payload = new byte[payloadBytes];
            for (int i = 0; i < tasks; i++) {
                payload[i % payloadBytes] = (byte) i;
                sendOut(new Task(i, payload.clone()));
            }
            return tasks == 0 ? eos() : goOn();
        }
        perGroup[worker / workersPerGroup]++;
        return ++received < tasks ? goOn() : eos();
    }

    @Override
    protected void svcEnd() {
        for (int g = 0; g < perGroup.length; g++) {
            out.println("G" + g + ": " + perGroup[g] + " tasks" + (g == 0 ? " (master's group)" : ""));
        }
        out.println("total: " + received + " tasks");
        out.flush();
    }
}
