package org.fastflowj.patterns;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Group;
import org.fastflowj.core.Pipeline;

/**
 * Where the threads of a {@link MacroDataFlow} run when its workers span distributed groups: the
 * generator, the scheduler and the pattern's own workers in the home group, further workers in worker
 * groups ({@link Farm} worker groups, see ff-core's {@code FarmGroups}). Also the rules a task must keep
 * to cross groups, checked when it is added (in one process too, so a program tested there runs the same
 * way distributed), and the copying back of what a remote task wrote.
 *
 * <p>Threading: configured before a run; read by the run's threads after the pipeline started them.
 */
final class MdfGroups {
    private String home;
    private final Map<String, Integer> workerGroups = new LinkedHashMap<>();

    void home(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("MacroDataFlow.createGroup: a group needs a name");
        }
        if (!Group.isValidName(name)) {
            throw new IllegalArgumentException(
                    "MacroDataFlow.createGroup(\"" + name + "\"): not a group name; expected " + Group.NAME_RULE);
        }
        if (home != null) {
            throw new IllegalStateException("MacroDataFlow: createGroup(\"" + name + "\") after createGroup(\"" + home
                    + "\"): the generator and scheduler run in one group");
        }
        checkUnused(name);
        home = name;
    }

    void addWorkers(String name, int workers) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("MacroDataFlow.addWorkerGroup: a group needs a name");
        }
        if (!Group.isValidName(name)) {
            throw new IllegalArgumentException(
                    "MacroDataFlow.addWorkerGroup(\"" + name + "\"): not a group name; expected " + Group.NAME_RULE);
        }
        if (workers < 1) {
            throw new IllegalArgumentException(
                    "MacroDataFlow.addWorkerGroup(\"" + name + "\", " + workers + "): at least 1 worker");
        }
        checkUnused(name);
        workerGroups.put(name, workers);
    }

    private void checkUnused(String name) {
        if (name.equals(home) || workerGroups.containsKey(name)) {
            throw new IllegalArgumentException("MacroDataFlow: group " + name + " is named twice");
        }
    }

    /** Whether some workers run in other groups than the scheduler. */
    boolean spansGroups() {
        return !workerGroups.isEmpty();
    }

    boolean hasHome() {
        return home != null;
    }

    int remoteWorkers() {
        return workerGroups.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Puts the program in groups: everything in the home group, then each worker group's workers (the last
     * ones of {@code workers}, after the home group's {@code homeWorkers}) in theirs.
     */
    void place(Pipeline program, Farm farm, List<MdfWorker> workers, int homeWorkers) {
        if (home == null) {
            if (spansGroups()) {
                throw new IllegalStateException("MacroDataFlow: worker group "
                        + workerGroups.keySet().iterator().next()
                        + " is added but the pattern has no group of its own: call createGroup(name) for the"
                        + " group of its generator and scheduler");
            }
            return;
        }
        program.createGroup(home);
        int next = homeWorkers;
        for (Map.Entry<String, Integer> g : workerGroups.entrySet()) {
            Group group = farm.createGroup(g.getKey());
            for (int i = 0; i < g.getValue(); i++) {
                group.include(workers.get(next++));
            }
        }
    }

    /**
     * Checks that {@code task} can run in another group, naming the task and what is wrong; returns whether
     * it may run in another group (false: workers do not span groups).
     */
    boolean checkCrossing(MdfTask task) {
        if (!spansGroups()) {
            return false;
        }
        String groups = workerGroups.keySet().toString();
        if (task.kernel == null) {
            throw new IllegalArgumentException("MacroDataFlow: " + task + " is a Runnable, but workers run in groups "
                    + groups + ": a task that may cross groups is a MacroDataFlow.Kernel, which gets its parameters'"
                    + " objects (g.add(kernel, in(a), inout(c)))");
        }
        Class<?> type = task.kernel.getClass();
        if (type.isSynthetic() || type.isHidden() || type.isAnonymousClass() || type.isLocalClass()) {
            throw new IllegalArgumentException("MacroDataFlow: the kernel of " + task + " is " + type.getName()
                    + ", a lambda or local class, but workers run in groups " + groups + ": a kernel crosses groups"
                    + " by its class name and fields, so it must be a named class or record");
        }
        Object[] values = task.values;
        for (int i = 0; i < values.length; i++) {
            for (int j = 0; j < i; j++) {
                if (values[j] == values[i]) {
                    throw new IllegalArgumentException("MacroDataFlow: " + task + " names the same object as"
                            + " parameters " + j + " and " + i + ": in another group they would be two copies;"
                            + " declare it once (inout if it is read and written)");
                }
            }
            if (task.written[i] && !copiesBack(values[i])) {
                throw new IllegalArgumentException("MacroDataFlow: parameter " + i + " of " + task + " is a "
                        + values[i].getClass().getName() + " the task writes, but workers run in groups " + groups
                        + ": what a task writes comes back from another group into the same object, which must be"
                        + " an array, a List or a Map");
            }
        }
        return true;
    }

    private static boolean copiesBack(Object o) {
        return o.getClass().isArray() || o instanceof List<?> || o instanceof Map<?, ?>;
    }

    /** Copies what a task run in another group wrote ({@code copy}) into the original's objects. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void copyBack(MdfTask original, MdfTask copy) {
        Object[] into = original.values;
        Object[] from = copy.values;
        if (from == null || from.length != into.length) {
            throw new IllegalStateException("MacroDataFlow: " + original + " came back from another group with "
                    + (from == null ? "no" : from.length) + " parameter values, not " + into.length);
        }
        for (int i = 0; i < into.length; i++) {
            if (!original.written[i]) {
                continue;
            }
            Object target = into[i];
            Object value = from[i];
            if (value == null || value.getClass() != target.getClass()) {
                throw new IllegalStateException("MacroDataFlow: parameter " + i + " of " + original
                        + " came back from another group as "
                        + (value == null ? "null" : value.getClass().getName())
                        + ", not a " + target.getClass().getName());
            }
            if (target.getClass().isArray()) {
                int length = Array.getLength(target);
                if (Array.getLength(value) != length) {
                    throw new IllegalStateException("MacroDataFlow: parameter " + i + " of " + original
                            + " came back from another group with " + Array.getLength(value) + " elements, not "
                            + length);
                }
                System.arraycopy(value, 0, target, 0, length);
            } else if (target instanceof List list) {
                list.clear();
                list.addAll((Collection) value);
            } else {
                Map map = (Map) target;
                map.clear();
                map.putAll((Map) value);
            }
        }
    }

    /**
     * The worker groups' index (in the order they were added) of each of the run's workers: -1 for the
     * first {@code homeWorkers}, which run in the home group; then each group's, as {@link #place} puts them.
     */
    int[] groupOfWorkers(int homeWorkers) {
        int[] groupOf = new int[homeWorkers + remoteWorkers()];
        Arrays.fill(groupOf, 0, homeWorkers, -1);
        int next = homeWorkers;
        int g = 0;
        for (int size : workerGroups.values()) {
            for (int i = 0; i < size; i++) {
                groupOf[next++] = g;
            }
            g++;
        }
        return groupOf;
    }

    /** The indices of each worker group's workers among the run's ({@link #groupOfWorkers}). */
    int[][] workersOfGroups(int homeWorkers) {
        int[][] workersOf = new int[workerGroups.size()][];
        int next = homeWorkers;
        int g = 0;
        for (int size : workerGroups.values()) {
            workersOf[g] = new int[size];
            for (int i = 0; i < size; i++) {
                workersOf[g][i] = next++;
            }
            g++;
        }
        return workersOf;
    }

    String homeGroup() {
        return home;
    }

    /** Each worker group's name and worker count, in the order they were added. */
    Map<String, Integer> workerGroupSizes() {
        return java.util.Collections.unmodifiableMap(workerGroups);
    }

    /** The names of the worker groups, for messages. */
    List<String> workerGroupNames() {
        return List.copyOf(workerGroups.keySet());
    }
}
