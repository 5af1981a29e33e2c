package org.fastflowj.patterns;

import java.util.ArrayList;
import java.util.IdentityHashMap;

/**
 * The scheduler's view of who uses which object, by identity: for every object some task not yet done
 * uses, its last writer and the readers added since. Only the scheduler thread touches it. An object is
 * forgotten when no task that uses it is left, so memory follows the outstanding tasks, not the run.
 */
final class DataDependencies {
    private static final class ObjectUse {
        MdfTask lastWriter;
        final ArrayList<MdfTask> readersSinceWriter = new ArrayList<>(4);
        /** Compact the readers when there are this many: keeps done readers from piling up, amortised O(1). */
        int compactAt = 16;
        /** Params of tasks not yet done that name this object. */
        int liveUses;

        void addReader(MdfTask reader) {
            if (readersSinceWriter.size() >= compactAt) {
                readersSinceWriter.removeIf(r -> r.done);
                compactAt = Math.max(16, 2 * readersSinceWriter.size());
            }
            readersSinceWriter.add(reader);
        }
    }

    private final IdentityHashMap<Object, ObjectUse> uses = new IdentityHashMap<>();

    /** Links {@code task} after the earlier tasks it depends on; returns whether it can run at once. */
    boolean register(MdfTask task) {
        for (MacroDataFlow.Param param : task.params) {
            ObjectUse use = uses.get(param.object());
            if (use == null) {
                use = new ObjectUse();
                uses.put(param.object(), use);
            }
            use.liveUses++;
            task.dependOn(use.lastWriter); // read-after-write or write-after-write
            if (param.access().writes()) {
                for (MdfTask reader : use.readersSinceWriter) {
                    task.dependOn(reader); // write-after-read
                }
                use.readersSinceWriter.clear();
                use.compactAt = 16;
                use.lastWriter = task;
            } else {
                use.addReader(task);
            }
        }
        return task.unmetDependencies == 0;
    }

    /** Marks {@code task} done and forgets the objects no other task still uses. */
    void complete(MdfTask task) {
        task.done = true;
        for (MacroDataFlow.Param param : task.params) {
            ObjectUse use = uses.get(param.object());
            if (--use.liveUses == 0) {
                uses.remove(param.object());
            }
        }
    }

    /** Objects currently tracked (for tests of the memory bound). */
    int trackedObjects() {
        return uses.size();
    }
}
