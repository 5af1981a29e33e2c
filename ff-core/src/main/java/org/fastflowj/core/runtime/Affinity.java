package org.fastflowj.core.runtime;

import java.util.BitSet;

/**
 * Pins the calling node thread to one CPU with OpenHFT's affinity library. Pinning is a hint: where it
 * is impossible (no native access, a CPU the machine does not have, a container that forbids it) the
 * node runs unpinned and the run logs why, once.
 */
final class Affinity {
    private Affinity() {}

    /** Pins to {@code cpu} (-1: leave alone); returns the CPU pinned to, or -1. */
    static int pin(int cpu, String threadName, RunControl control) {
        if (cpu < 0) {
            return -1;
        }
        int available = Runtime.getRuntime().availableProcessors();
        if (cpu >= available) {
            control.warnOnce(
                    "cpu" + cpu,
                    "threadMapping: CPU " + cpu + " is not available (this JVM sees " + available + " CPUs); "
                            + threadName + " and any other thread mapped to it run unpinned");
            return -1;
        }
        try {
            net.openhft.affinity.Affinity.setAffinity(cpu);
            BitSet now = net.openhft.affinity.Affinity.getAffinity();
            if (now.cardinality() == 1 && now.get(cpu)) {
                return cpu;
            }
            control.warnOnce(
                    "pinning",
                    "threadMapping: thread pinning had no effect on this platform (affinity " + now
                            + " after asking for CPU " + cpu + "); node threads run unpinned");
        } catch (Throwable t) {
            control.warnOnce(
                    "pinning",
                    "threadMapping: thread pinning is unavailable here (" + t + "); node threads run unpinned");
        }
        return -1;
    }
}
