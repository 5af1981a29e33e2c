package org.fastflowj.patterns.crossing;

/**
 * The parameters of a macro data-flow task on their way to a worker in another group, and back: their
 * values in declared order and which of them the task writes; on the way out also each object's identity
 * in the run and its version, the number of tasks that wrote it and were completed before this task was
 * handed out. ff-dist's codec sends a parameter whose identity and version the receiving group already
 * holds as a reference instead of its value; that is all the two are for. The copy a worker group reads
 * has no identities, and the task goes back with them left out: the values it wrote in full, the others
 * null.
 *
 * <p>Threading: filled by the thread that hands the task out, read by the thread that serializes it after
 * a channel's hand-off; the arrays are not changed while the task is in flight.
 */
public final class CrossingParameters {
    private final Object[] values;
    private final boolean[] written;
    private final long[] ids;
    private final int[] versions;

    /** Parameters without identities: a copy read in a worker group, or a task on its way back. */
    public CrossingParameters(Object[] values, boolean[] written) {
        this(values, written, null, null);
    }

    /**
     * Parameters with identities, as the scheduler's group sends them: {@code ids[i]} and {@code
     * versions[i]} say which object value {@code i} is and how many writers it has seen.
     */
    public CrossingParameters(Object[] values, boolean[] written, long[] ids, int[] versions) {
        if (written.length != values.length
                || (ids != null && ids.length != values.length)
                || (versions != null && versions.length != values.length)
                || (ids == null) != (versions == null)) {
            throw new IllegalArgumentException("parameters of unequal counts, or identities without versions");
        }
        this.values = values;
        this.written = written;
        this.ids = ids;
        this.versions = versions;
    }

    public int count() {
        return values.length;
    }

    public Object value(int i) {
        return values[i];
    }

    /** Whether the task writes parameter {@code i}: its value comes back from the worker group. */
    public boolean written(int i) {
        return written[i];
    }

    /** Whether each value has an identity and a version (the way out), so a group may hold it already. */
    public boolean identified() {
        return ids != null;
    }

    /** The identity of parameter {@code i}'s object in its run: never given to another object. */
    public long id(int i) {
        return ids[i];
    }

    /** How many tasks that write parameter {@code i}'s object were completed when this one was handed out. */
    public int version(int i) {
        return versions[i];
    }

    /** The values themselves (not a copy): what the task's kernel runs on. */
    public Object[] values() {
        return values;
    }

    /** Which values the task writes (not a copy). */
    public boolean[] writtenFlags() {
        return written;
    }
}
