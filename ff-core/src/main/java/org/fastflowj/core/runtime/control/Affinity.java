package org.fastflowj.core.runtime.control;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.fastflowj.core.runtime.channel.NodeThreads;

/**
 * Pins the calling node thread to one CPU with OpenHFT's affinity library. Pinning is a hint: where it
 * is impossible (no native access, a CPU the machine does not have, a container that forbids it) the
 * node runs unpinned and the run logs why, once.
 *
 * <p>{@link #claim} is FastFlow's default mapping ({@code threadMapping("auto")}): a run's threads on
 * CPUs of their own, among the CPUs this process may use, those the fewest of this JVM's other claimed
 * threads hold first (so two runs at once spread over the CPUs instead of stacking on the first ones).
 * Left to itself, Linux may start two threads that hand items to each other on one CPU and keep them
 * there: each one's wait yields the CPU to the other, so they take turns instead of running side by side
 * (a two-thread pipeline then takes the time of both its halves).
 */
public final class Affinity {
    /** Threads this JVM has claimed per CPU, to pick the least used ones; guarded by itself. */
    private static final int[] CLAIMED = new int[1024];

    private Affinity() {}

    /**
     * Pins to {@code cpu} from a thread mapping (-1: leave alone); returns the CPU pinned to, or -1. The CPU
     * is checked against the CPUs the process may use, not {@link Runtime#availableProcessors}: that counts
     * the calling thread's mask (one CPU for a thread started by a pinned one), and the JVM may keep such a
     * count a few milliseconds for every thread, so one pinned thread's call can make all of them see one.
     */
    public static int pin(int cpu, String threadName, RunControl control) {
        if (cpu < 0) {
            return -1;
        }
        BitSet allowed = allowedCpus();
        boolean usable = allowed.isEmpty() ? cpu < Runtime.getRuntime().availableProcessors() : allowed.get(cpu);
        if (!usable) {
            control.warnOnce(
                    "cpu" + cpu,
                    "threadMapping: CPU " + cpu + " is not one this process may use ("
                            + (allowed.isEmpty()
                                    ? Runtime.getRuntime().availableProcessors() + " CPUs"
                                    : "CPUs " + allowed)
                            + "); " + threadName + " and any other thread mapped to it run unpinned");
            return -1;
        }
        return pinTo(cpu, control);
    }

    /** Pins to a CPU {@link #claim} gave, which is one this process may use; returns it, or -1. */
    public static int pinClaimed(int cpu, RunControl control) {
        return cpu < 0 ? -1 : pinTo(cpu, control);
    }

    private static int pinTo(int cpu, RunControl control) {
        try {
            NodeThreads.doNotReuseCurrentThread(); // its CPU mask is this run's
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

    /**
     * CPUs for a run of {@code threads} threads, claimed until each is {@link #release}d: distinct ones
     * while the process has enough, the least claimed first (ties: the lowest number), cycling over them
     * when the run has more threads than CPUs. Empty when the CPUs the process may use are unknown.
     */
    public static int[] claim(int threads) {
        BitSet allowed = allowedCpus();
        if (allowed.isEmpty()) {
            return new int[0];
        }
        int[] cpus = new int[threads];
        synchronized (CLAIMED) {
            BitSet unusedByThisRun = new BitSet();
            for (int t = 0; t < threads; t++) {
                if (unusedByThisRun.isEmpty()) {
                    unusedByThisRun.or(allowed);
                }
                int chosen = -1;
                for (int c = unusedByThisRun.nextSetBit(0); c >= 0; c = unusedByThisRun.nextSetBit(c + 1)) {
                    if (chosen < 0 || CLAIMED[c] < CLAIMED[chosen]) {
                        chosen = c;
                    }
                }
                unusedByThisRun.clear(chosen);
                CLAIMED[chosen]++;
                cpus[t] = chosen;
            }
        }
        return cpus;
    }

    /** A thread that {@link #claim} gave {@code cpu} ended: the CPU is one thread less used. */
    public static void release(int cpu) {
        if (cpu >= 0 && cpu < CLAIMED.length) {
            synchronized (CLAIMED) {
                CLAIMED[cpu] = Math.max(0, CLAIMED[cpu] - 1);
            }
        }
    }

    /**
     * The CPUs this process may use: the process's own list (Linux's {@code Cpus_allowed_list}, not the
     * calling thread's mask, which is one CPU when a pinned node starts a run of its own), else the
     * calling thread's mask, else none.
     */
    private static BitSet allowedCpus() {
        BitSet cpus = new BitSet();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    for (String range :
                            line.substring(line.indexOf(':') + 1).trim().split(",")) {
                        String[] ends = range.trim().split("-");
                        int from = Integer.parseInt(ends[0]);
                        int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
                        cpus.set(from, Math.min(to, CLAIMED.length - 1) + 1);
                    }
                    return cpus;
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            cpus.clear(); // not Linux, or a list this code does not read: ask the affinity library
        }
        try {
            BitSet mask = net.openhft.affinity.Affinity.getAffinity();
            mask.clear(CLAIMED.length, Math.max(CLAIMED.length, mask.length()));
            return mask;
        } catch (Throwable unavailable) {
            return new BitSet();
        }
    }
}
