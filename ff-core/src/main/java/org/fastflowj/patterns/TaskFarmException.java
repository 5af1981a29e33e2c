package org.fastflowj.patterns;

/**
 * A {@link TaskFarm} task threw: the message names the task (its name, or its index among the tasks added
 * since the previous {@link TaskFarm#waitAll()}), the cause is what it threw; the failures of other tasks
 * of the same round are suppressed on it. The farm stays usable.
 */
public final class TaskFarmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long taskIndex;
    private final String taskName;

    TaskFarmException(long taskIndex, String taskName, Throwable cause) {
        super("TaskFarm: " + describe(taskIndex, taskName) + " failed: " + cause, cause);
        this.taskIndex = taskIndex;
        this.taskName = taskName;
    }

    private static String describe(long index, String name) {
        return name != null ? "task '" + name + "' (#" + index + ")" : "task #" + index;
    }

    /** The failed task's index among the tasks added since the previous {@code waitAll} (from 0). */
    public long taskIndex() {
        return taskIndex;
    }

    /** The failed task's name, or {@code null} if it was added without one. */
    public String taskName() {
        return taskName;
    }
}
