package org.fastflowj.patterns;

/**
 * What the scheduler knows of one object that tasks use when workers span groups: its identity in the
 * run, its version (how many tasks that write it were completed) and which worker groups hold that
 * version, because a task that used it ran there. The identity and version go out with every task that
 * names the object ({@link MdfTask#crossing}): the codec of the link to a worker group sends a reference
 * instead of the value when that group holds the same version. Which groups hold it only steers where the
 * next task that writes it would rather run ({@link MdfScheduler}); it is never trusted for correctness:
 * the codec keeps its own account of what each group holds.
 *
 * <p>Threading: made by the generator, then read and written by the scheduler thread only. A task that
 * names it reaches the scheduler through a channel or through a predecessor's completion count, and either
 * orders the construction before the scheduler's reads.
 */
final class MdfObject {
    /** Worker groups past this many are not tracked: tasks never prefer them. */
    static final int TRACKED_GROUPS = Long.SIZE;

    final long id;
    int version;
    /** Bit {@code g}: worker group {@code g} holds the current version. */
    long heldBy;

    MdfObject(long id) {
        this.id = id;
    }

    /** Worker group {@code group} (-1: the scheduler's own) ran a task that read the current version. */
    void readIn(int group) {
        heldBy |= bit(group);
    }

    /** A task that wrote the object was completed; it ran in {@code group} (-1: the scheduler's own). */
    void writtenIn(int group) {
        version++;
        heldBy = bit(group); // the other groups' copies are of the version before
    }

    private static long bit(int group) {
        return group >= 0 && group < TRACKED_GROUPS ? 1L << group : 0L;
    }
}
