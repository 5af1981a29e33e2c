package org.fastflowj.core.runtime;

import java.util.BitSet;

/**
 * Pins the calling node thread to one CPU with OpenHFT's affinity library. Pinning is a hint: where it
 * is impossible (no native access, a CPU the machine does not have, a container that forbids it) the
 * node runs unpinned and the run logs why, once.
 *
 * <p>{@link #AUTO} is FastFlow's default mapping: each thread on a CPU of its own, chosen among the CPUs
 * this process may use, the one the fewest of this JVM's auto-pinned node threads hold first (so two
 * runs at once spread over the CPUs instead of stacking on the first ones). Left to itself, Linux may
 * start two threads that hand items to each other on one CPU and keep them there: each one's wait yields
 * the CPU to the other, so they take turns instead of running side by side (a two-thread pipeline then
 * takes the time of both its halves).
 */
final class Affinity {
    /** A CPU request: the least used CPU this process may run on, see the class note. */
    static final int AUTO = -2;

    /** Node threads this JVM auto-pinned per CPU, to pick the least used one; guarded by itself. */
    private static final int[] AUTO_PINNED = new int[1024];

    private Affinity() {}

    /**
     * Pins to {@code cpu} (-1: leave alone; {@link #AUTO}: the least used allowed CPU); returns the CPU
     * pinned to, or -1. An auto-pinned thread calls {@link #release} with that CPU when it ends.
     */
    static int pin(int cpu, String threadName, RunControl control) {
        if (cpu == AUTO) {
            return pinAuto(control);
        }
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
        return pinTo(cpu, control);
    }

    private static int pinTo(int cpu, RunControl control) {
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

    private static int pinAuto(RunControl control) {
        BitSet allowed;
        try {
            allowed = net.openhft.affinity.Affinity.getAffinity();
        } catch (Throwable t) {
            control.warnOnce(
                    "pinning", "thread mapping: pinning is unavailable here (" + t + "); node threads run unpinned");
            return -1;
        }
        int chosen = -1;
        synchronized (AUTO_PINNED) {
            for (int c = allowed.nextSetBit(0); c >= 0 && c < AUTO_PINNED.length; c = allowed.nextSetBit(c + 1)) {
                if (chosen < 0 || AUTO_PINNED[c] < AUTO_PINNED[chosen]) {
                    chosen = c;
                }
            }
            if (chosen < 0) {
                return -1; // no CPU this process may use is known: leave the thread alone
            }
            AUTO_PINNED[chosen]++;
        }
        int pinned = pinTo(chosen, control);
        if (pinned < 0) {
            release(chosen);
        }
        return pinned;
    }

    /** An auto-pinned thread ended: its CPU is one thread less used. */
    static void release(int cpu) {
        if (cpu >= 0 && cpu < AUTO_PINNED.length) {
            synchronized (AUTO_PINNED) {
                AUTO_PINNED[cpu] = Math.max(0, AUTO_PINNED[cpu] - 1);
            }
        }
    }
}
