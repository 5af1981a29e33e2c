package org.fastflowj.patterns;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;

/**
 * The generator's view of who uses which object, by identity: for every object some recent task uses,
 * its last writer and the readers added since. Only the generator thread touches it; the tasks' frames
 * carry the dependency counts the workers update ({@link MdfTask}).
 *
 * <p>Cost per declared operand: one look-up (skipped when the operand is the object the previous task
 * named at the same position, as a block product's accumulator), one link per edge. Objects whose tasks
 * are all done are dropped in sweeps, each once the table holds twice what the last one kept (and at
 * least {@code minSweepAt}), so memory is bounded by the objects of the outstanding tasks and a sweep
 * costs O(1) per object added.
 */
final class DataDependencies {
    /** Sweeps start at this many objects at least: below, a sweep would cost more than it frees. */
    private static final int MIN_SWEEP_AT = 1024;
    /** Parameter positions remembered from the previous task. */
    private static final int REMEMBERED = 4;

    private static final class ObjectUse {
        /** When workers span groups: the object's identity and version, which its tasks carry; else null. */
        MdfObject record;

        MdfTask lastWriter;
        /** The readers added since {@link #lastWriter}, in {@code readers[0, readerCount)}; null until one. */
        MdfTask[] readers;

        int readerCount;
        /** Compact the readers when there are this many: keeps done readers from piling up, amortised O(1). */
        int compactAt = 16;

        void addReader(MdfTask reader) {
            if (readers == null) {
                readers = new MdfTask[4];
            } else if (readerCount == readers.length) {
                if (readerCount >= compactAt) {
                    compact();
                }
                if (readerCount == readers.length) {
                    readers = Arrays.copyOf(readers, 2 * readerCount);
                }
            }
            readers[readerCount++] = reader;
        }

        private void compact() {
            int kept = 0;
            for (int r = 0; r < readerCount; r++) {
                if (!readers[r].isDone()) {
                    readers[kept++] = readers[r];
                }
            }
            Arrays.fill(readers, kept, readerCount, null);
            readerCount = kept;
            compactAt = Math.max(16, 2 * kept);
        }

        /** After a write: the next readers are of the new version. */
        void clearReaders() {
            if (readerCount > 0) {
                Arrays.fill(readers, 0, readerCount, null);
                readerCount = 0;
            }
            compactAt = 16;
        }

        boolean allDone() {
            if (lastWriter != null && !lastWriter.isDone()) {
                return false;
            }
            for (int r = 0; r < readerCount; r++) {
                if (!readers[r].isDone()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final IdentityHashMap<Object, ObjectUse> uses = new IdentityHashMap<>();
    /**
     * No sweep below this many objects: many times what the outstanding tasks can name, so objects used
     * again and again (a matrix's blocks, read once per row of the product) are not dropped and tracked
     * anew each time, while the objects kept for done tasks stay bounded.
     */
    private final int minSweepAt;

    private int sweepAt;
    private final Object[] previousObject = new Object[REMEMBERED];
    private final ObjectUse[] previousUse = new ObjectUse[REMEMBERED];
    /**
     * Whether objects get an identity ({@link MdfObject}): only when workers span groups. The next one; an
     * object forgotten in a sweep and named again gets a new one, so an identity is never reused in a run.
     */
    private final boolean identifies;

    private long nextIdentity;

    DataDependencies(int outstandingTasks) {
        this(outstandingTasks, false);
    }

    DataDependencies(int outstandingTasks, boolean identifies) {
        minSweepAt = (int) Math.min(1 << 24, Math.max(MIN_SWEEP_AT, 16L * outstandingTasks));
        sweepAt = minSweepAt;
        this.identifies = identifies;
    }

    /**
     * Links {@code task} after the earlier tasks it depends on; returns whether it is ready, in which case
     * the caller hands it out. Otherwise the completion of its last predecessor does.
     */
    boolean register(MdfTask task) {
        task.startRegistration();
        MacroDataFlow.Param[] params = task.params;
        for (int p = 0; p < params.length; p++) {
            MacroDataFlow.Param param = params[p];
            ObjectUse use = use(param.object(), p);
            if (identifies) {
                task.objectIs(p, use.record);
            }
            if (use.lastWriter != null) {
                task.dependOn(use.lastWriter); // read-after-write or write-after-write
            }
            if (param.access().writes()) {
                MdfTask[] readers = use.readers;
                for (int r = 0, n = use.readerCount; r < n; r++) {
                    task.dependOn(readers[r]); // write-after-read
                }
                use.clearReaders();
                use.lastWriter = task;
            } else {
                use.addReader(task);
            }
        }
        return task.endRegistration();
    }

    private ObjectUse use(Object object, int position) {
        if (position < REMEMBERED && previousObject[position] == object) {
            return previousUse[position];
        }
        ObjectUse use = uses.get(object);
        if (use == null) {
            if (uses.size() >= sweepAt) {
                sweep();
            }
            use = new ObjectUse();
            if (identifies) {
                use.record = new MdfObject(nextIdentity++);
            }
            uses.put(object, use);
        }
        if (position < REMEMBERED) {
            previousObject[position] = object;
            previousUse[position] = use;
        }
        return use;
    }

    /** Forgets the objects whose tasks are all done: a task added later that uses one waits for nothing. */
    private void sweep() {
        for (Iterator<ObjectUse> it = uses.values().iterator(); it.hasNext(); ) {
            if (it.next().allDone()) {
                it.remove();
            }
        }
        Arrays.fill(previousObject, null);
        Arrays.fill(previousUse, null);
        sweepAt = Math.max(minSweepAt, 2 * uses.size());
    }

    /** Objects currently tracked (for tests of the memory bound). */
    int trackedObjects() {
        return uses.size();
    }
}
