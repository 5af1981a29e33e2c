package org.fastflowj.patterns;

import java.util.ArrayList;

/**
 * One task of a {@link MacroDataFlow} run and its place in the dependency graph. The generator fills the
 * final fields; from then on only the scheduler touches the graph fields, and a worker only runs {@link
 * #body}: each hand-over is a channel, which orders the writes before the next thread's reads.
 */
final class MdfTask {
    final long index;
    final String name;
    Runnable body;
    MacroDataFlow.Param[] params;

    /** Earlier tasks not yet done that this one waits for. */
    int unmetDependencies;
    /** Later tasks waiting for this one; {@code null} while there are none. */
    ArrayList<MdfTask> successors;

    boolean done;

    MdfTask(long index, String name, Runnable body, MacroDataFlow.Param[] params) {
        this.index = index;
        this.name = name;
        this.body = body;
        this.params = params;
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
