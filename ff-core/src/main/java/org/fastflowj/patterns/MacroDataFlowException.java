package org.fastflowj.patterns;

/**
 * A {@link MacroDataFlow} task or generator threw: the message names the task (its name, or its index
 * among the run's tasks), the cause is what it threw.
 */
public class MacroDataFlowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String what;
    private final long taskIndex;
    private final String taskName;

    MacroDataFlowException(String what, long taskIndex, String taskName, Throwable cause) {
        super("MacroDataFlow: " + what + " failed: " + cause, cause);
        this.what = what;
        this.taskIndex = taskIndex;
        this.taskName = taskName;
    }

    static MacroDataFlowException taskFailed(MdfTask task, Throwable cause) {
        String what = task.name != null ? "task '" + task.name + "' (#" + task.index + ")" : "task #" + task.index;
        return new MacroDataFlowException(what, task.index, task.name, cause);
    }

    static MacroDataFlowException generatorFailed(Throwable cause) {
        return new MacroDataFlowException("the generator", -1, null, cause);
    }

    /** The same failure, thrown again from the caller's thread, with the run's failure suppressed. */
    MacroDataFlowException rethrownHere(Throwable runFailure) {
        MacroDataFlowException here = new MacroDataFlowException(what, taskIndex, taskName, getCause());
        here.addSuppressed(runFailure);
        return here;
    }

    /** The failed task's index among the tasks its run added (from 0), or -1 if the generator failed. */
    public long taskIndex() {
        return taskIndex;
    }

    /** The failed task's name, or {@code null} if it was added without one or the generator failed. */
    public String taskName() {
        return taskName;
    }
}
