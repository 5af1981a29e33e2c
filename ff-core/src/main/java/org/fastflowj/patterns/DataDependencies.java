package org.fastflowj.patterns;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;

/**
 * The generator's view of who uses which object, by identity: for every object some recent task uses,
 * its last writer and the readers added since. Only the generator thread touches it; the tasks' frames
 * carry the dependency counts the workers update ({@link MdfTask}).
 *
 * <p>Cost per declared operand: one look-up (skipped when the operand is the object the previous task
 * named at the same position, as a block product's accumulator), one link per edge. Objects whose tasks
 * are all done are dropped in sweeps, each when the table has doubled since the last, so memory follows
 * the objects of the outstanding tasks and a sweep costs O(1) per object added.
 */
final class DataDependencies {
    /** Sweeps start at this many objects: below, a sweep would cost more than the memory it frees. */
    private static final int MIN_SWEEP_AT = 1024;
    /** Parameter positions remembered from the previous task. */
    private static final int REMEMBERED = 4;

    private static final class ObjectUse {
        MdfTask lastWriter;
        final ArrayList<MdfTask> readersSinceWriter = new ArrayList<>(4);
        /** Compact the readers when there are this many: keeps done readers from piling up, amortised O(1). */
        int compactAt = 16;

        void addReader(MdfTask reader) {
            if (readersSinceWriter.size() >= compactAt) {
                readersSinceWriter.removeIf(MdfTask::isDone);
                compactAt = Math.max(16, 2 * readersSinceWriter.size());
            }
            readersSinceWriter.add(reader);
        }

        boolean allDone() {
            if (lastWriter != null && !lastWriter.isDone()) {
                return false;
            }
            for (int i = 0, n = readersSinceWriter.size(); i < n; i++) {
                if (!readersSinceWriter.get(i).isDone()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final IdentityHashMap<Object, ObjectUse> uses = new IdentityHashMap<>();
    private int sweepAt = MIN_SWEEP_AT;
    private final Object[] previousObject = new Object[REMEMBERED];
    private final ObjectUse[] previousUse = new ObjectUse[REMEMBERED];

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
            if (use.lastWriter != null) {
                task.dependOn(use.lastWriter); // read-after-write or write-after-write
            }
            if (param.access().writes()) {
                ArrayList<MdfTask> readers = use.readersSinceWriter;
                for (int r = 0, n = readers.size(); r < n; r++) {
                    task.dependOn(readers.get(r)); // write-after-read
                }
                readers.clear();
                use.compactAt = 16;
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
        java.util.Arrays.fill(previousObject, null);
        java.util.Arrays.fill(previousUse, null);
        sweepAt = Math.max(MIN_SWEEP_AT, 2 * uses.size());
    }

    /** Objects currently tracked (for tests of the memory bound). */
    int trackedObjects() {
        return uses.size();
    }
}
