package org.fastflowj.patterns;

import java.util.ArrayList;

/**
 * One task of a {@link MacroDataFlow} run and its place in the dependency graph. The generator fills the
 * final fields; from then on only the scheduler touches the graph fields, and a worker only runs {@link
 * #body} or {@link #kernel}: each hand-over is a channel, which orders the writes before the next thread's
 * reads.
 *
 * <p>To a worker in another group the task itself is the message: only its non-transient fields cross
 * (index, name, kernel, parameter values and which of them it writes), so the dependency graph never
 * does. The copy a remote worker runs has no {@link #params}; it goes back with only its written values
 * ({@link MdfGroups#copyBack}).
 */
final class MdfTask {
    final long index;
    final String name;
    /** The task as a {@link MacroDataFlow.Kernel} (which may cross groups), or null for a {@link #body}. */
    MacroDataFlow.Kernel kernel;
    /** The parameters' objects, in declared order: what a kernel gets (in another group: copies). */
    Object[] values;
    /** Per parameter: whether the task writes it (its value comes back from another group). */
    boolean[] written;

    transient Runnable body;
    /** The declared parameters; null in a copy received from another group. */
    transient MacroDataFlow.Param[] params;

    /** Earlier tasks not yet done that this one waits for. */
    transient int unmetDependencies;
    /** Later tasks waiting for this one; {@code null} while there are none. */
    transient ArrayList<MdfTask> successors;

    transient boolean done;

    MdfTask(long index, String name, Runnable body, MacroDataFlow.Param[] params) {
        this.index = index;
        this.name = name;
        this.body = body;
        this.params = params;
    }

    MdfTask(long index, String name, MacroDataFlow.Kernel kernel, MacroDataFlow.Param[] params) {
        this(index, name, (Runnable) null, params);
        this.kernel = kernel;
        this.values = new Object[params.length];
        this.written = new boolean[params.length];
        for (int i = 0; i < params.length; i++) {
            values[i] = params[i].object();
            written[i] = params[i].access().writes();
        }
    }

    /** Whether this is a copy received from another group rather than the generator's task. */
    boolean isCopy() {
        return params == null;
    }

    /** Makes this task wait for {@code earlier}, unless it is done already or is this task. */
    void dependOn(MdfTask earlier) {
        if (earlier == null || earlier == this || earlier.done) {
            return;
        }
        if (earlier.successors == null) {
            earlier.successors = new ArrayList<>(4);
        } else if (earlier.successors.get(earlier.successors.size() - 1) == this) {
            // this task is being registered now, so a second edge from the same task would be the last one
            return;
        }
        earlier.successors.add(this);
        unmetDependencies++;
    }

    @Override
    public String toString() {
        return name != null ? "task '" + name + "' (#" + index + ")" : "task #" + index;
    }
}
