package org.fastflowj.examples.masterworker;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;

/**
 * The master-worker test of Fig. 10 of the 2022 paper: an all-to-all whose only L-Worker is the master
 * and whose R-Workers are the workers, on-demand, with the answers fed back to the master.
 *
 * <pre>
 *         ┌── G0 ─────────────────────┐   ┌── G1 ──────┐
 *   ┌──▶ Master ──┬──▶ W0 ... W(w-1) ──┼─┐ │ Ww ... W2w-1│ ...
 *   │             └────────────────────────┼──▶  ...    │
 *   └───────────── feedback (answers) ◀────┴────────────┘
 * </pre>
 *
 * The cut is horizontal (inter-set): group G0 holds the master and its local workers, groups G1.. hold
 * {@code w} workers each. On-demand scheduling favours idle workers, so with fine grains the local
 * workers, whose slots free up fastest, compute more tasks.
 *
 * <p>{@link #buildFarm} is the same program as the paper's own shape, a farm whose emitter is the master
 * and whose workers feed back to it, with its workers spread over the groups: G0 is the farm's group
 * (master and the first {@code w} workers), each further group takes {@code w} workers.
 */
public final class MasterWorker {
    /** The payload size of the paper's tasks. */
    public static final int PAYLOAD_BYTES = 128;

    private MasterWorker() {}

    public static AllToAll build(int tasks, long grainNs, int groups, int workersPerGroup, PrintStream out) {
        return build(tasks, sameGrain(grainNs, groups * workersPerGroup), false, groups, workersPerGroup, out);
    }

    /**
     * Worker {@code i} (of {@code groups × workersPerGroup}, group by group) burns {@code grainsNs[i]} of CPU
     * time per task, or sleeps it ({@code sleeps}).
     */
    public static AllToAll build(
            int tasks, long[] grainsNs, boolean sleeps, int groups, int workersPerGroup, PrintStream out) {
        Master master = new Master(tasks, PAYLOAD_BYTES, groups, workersPerGroup, out);
        List<Node<Task, Integer>> workers = workers(grainsNs, sleeps, groups * workersPerGroup);
        AllToAll a2a =
                new AllToAll().firstSet(master).secondSet(workers).onDemand().wrapAround();
        for (int g = 0; g < groups; g++) {
            Group group = a2a.createGroup("G" + g);
            if (g == 0) {
                group.include(master);
            }
            for (int k = 0; k < workersPerGroup; k++) {
                group.include(workers.get(g * workersPerGroup + k));
            }
        }
        return a2a;
    }

    /** The farm form: the master as emitter, every worker's answer fed back to it, workers in every group. */
    public static Farm buildFarm(int tasks, long grainNs, int groups, int workersPerGroup, PrintStream out) {
        return buildFarm(tasks, sameGrain(grainNs, groups * workersPerGroup), false, groups, workersPerGroup, out);
    }

    /** The farm form with worker {@code i} burning (or sleeping) {@code grainsNs[i]} per task. */
    public static Farm buildFarm(
            int tasks, long[] grainsNs, boolean sleeps, int groups, int workersPerGroup, PrintStream out) {
        Master master = new Master(tasks, PAYLOAD_BYTES, groups, workersPerGroup, out);
        List<Node<Task, Integer>> workers = workers(grainsNs, sleeps, groups * workersPerGroup);
        Farm farm = Farm.of(workers).emitter(master).onDemand().wrapAround();
        farm.createGroup("G0"); // the master and the workers no other group takes
        for (int g = 1; g < groups; g++) {
            Group group = farm.createGroup("G" + g);
            for (int k = 0; k < workersPerGroup; k++) {
                group.include(workers.get(g * workersPerGroup + k));
            }
        }
        return farm;
    }

    private static long[] sameGrain(long grainNs, int workers) {
        long[] grains = new long[workers];
        Arrays.fill(grains, grainNs);
        return grains;
    }

    private static List<Node<Task, Integer>> workers(long[] grainsNs, boolean sleeps, int count) {
        if (grainsNs.length != count) {
            throw new IllegalArgumentException(count + " workers need " + count + " grains, not " + grainsNs.length);
        }
        List<Node<Task, Integer>> workers = new ArrayList<>();
        for (long grainNs : grainsNs) {
            workers.add(new Worker(grainNs, sleeps));
        }
        return workers;
    }
}
