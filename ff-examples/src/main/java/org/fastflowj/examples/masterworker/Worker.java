package org.fastflowj.examples.masterworker;

import org.fastflowj.core.Node;

/** An R-Worker: burns the CPU for the grain, then answers with its own index (to the master, by feedback). */
final class Worker extends Node<Task, Integer> {
    private final long grainNs;

    Worker(long grainNs) {
        this.grainNs = grainNs;
    }

    @Override
    protected Integer svc(Task task) {
        long until = System.nanoTime() + grainNs;
        long spins = task.id();
        while (System.nanoTime() < until) {
            spins = spins * 6364136223846793005L + 1442695040888963407L; // work the JIT cannot drop
        }
        return spins == 42 ? id() : id(); // keeps spins alive
    }
}
