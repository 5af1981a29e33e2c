package org.fastflowj.core.runtime.node;

/**
 * What a node does with an ordered farm's task mark taken from an input: a later stage of a worker passes
 * it on ({@link OutputChannels#sendMarks}), any other node drops it. Chosen when the graph is wired.
 *
 * <p>Threading: the node thread.
 */
@FunctionalInterface
public interface TaskMarks {
    /** Not a stage inside an ordered farm's worker: the mark has no one to go to. */
    TaskMarks DROP = () -> {};

    /** A task mark was taken. */
    void taken();
}
