package org.fastflowj.core.spi;

/** Where a started block runs: which runner may take its graph. */
public enum Placement {
    /** The installed distributed runner when this process runs as a group, else the shared-memory executor. */
    ANY_RUNNER,
    /**
     * Always this process's shared-memory executor, whatever runner is installed: a block a library runs for
     * itself, whose items are shared objects that never go through a serializer.
     */
    IN_PROCESS,
    /**
     * This process's own group of the block when it runs as a group of a program with groups (a pattern
     * whose workers span groups); otherwise the whole block in process, as {@link #IN_PROCESS}.
     */
    OWN_GROUP_OR_IN_PROCESS
}
