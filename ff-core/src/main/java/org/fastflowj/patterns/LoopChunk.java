package org.fastflowj.patterns;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One chunk of a {@link ParallelFor} call whose workers span groups ({@link GroupLoops}): a macro data-flow
 * kernel over iterations {@code [from, to)}, whose only parameter is the chunk's result slot, an {@code
 * Object[1]} (written, so it comes back from another group). A reduction leaves its partial there. A loop's
 * body ran on a copy in another group leaves there the elements it wrote: for each array field of the body,
 * the chunk's indices' elements ({@link #slices}), which {@link #scatter} puts into the original arrays.
 *
 * <p>Fields cross groups as the task's kernel; {@link #original} does not (transient): it is set only on
 * the scheduler's side, so a chunk that finds it set runs on the original body, in the scheduler's process.
 */
final class LoopChunk implements MacroDataFlow.Kernel {
    enum Kind {
        EACH,
        LONG,
        DOUBLE,
        OBJECT
    }

    Kind kind;
    Object body;
    long longIdentity;
    double doubleIdentity;
    Supplier<?> objectIdentity;
    long first;
    long step;
    long from;
    long to;
    /** Set in the scheduler's process only: the chunk runs on the original objects there. */
    transient boolean original;

    @Override
    @SuppressWarnings("unchecked")
    public void run(Object[] params) {
        Object[] slot = (Object[]) params[0];
        switch (kind) {
            case EACH -> {
                IndexBody each = (IndexBody) body;
                for (long k = from; k < to; k++) {
                    each.apply(LoopRange.index(first, step, k));
                }
                if (!original) {
                    slot[0] = slices(body, first, step, from, to);
                }
            }
            case LONG -> {
                LongReduceBody fold = (LongReduceBody) body;
                long partial = longIdentity;
                for (long k = from; k < to; k++) {
                    partial = fold.apply(partial, LoopRange.index(first, step, k));
                }
                slot[0] = partial; // boxed once per chunk
            }
            case DOUBLE -> {
                DoubleReduceBody fold = (DoubleReduceBody) body;
                double partial = doubleIdentity;
                for (long k = from; k < to; k++) {
                    partial = fold.apply(partial, LoopRange.index(first, step, k));
                }
                slot[0] = partial;
            }
            case OBJECT -> {
                ReduceBody<Object> fold = (ReduceBody<Object>) body;
                Object partial = objectIdentity.get();
                for (long k = from; k < to; k++) {
                    partial = fold.apply(partial, LoopRange.index(first, step, k));
                }
                slot[0] = partial;
            }
        }
    }

    /** The array fields of {@code body}'s class and its superclasses, in declaration order. */
    static List<Field> arrayFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getType().isArray() && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    /**
     * Per array field of {@code body}, the elements at the chunk's indices that lie inside it (an array of
     * the same type, {@code to - from} long at most); null for a null field.
     */
    static Object[] slices(Object body, long first, long step, long from, long to) {
        List<Field> fields = arrayFields(body.getClass());
        Object[] slices = new Object[fields.size()];
        for (int f = 0; f < slices.length; f++) {
            Object array = read(fields.get(f), body);
            if (array == null) {
                continue;
            }
            int length = Array.getLength(array);
            Object slice = Array.newInstance(array.getClass().getComponentType(), (int) (to - from));
            for (long k = from; k < to; k++) {
                long index = LoopRange.index(first, step, k);
                if (index >= 0 && index < length) {
                    System.arraycopy(array, (int) index, slice, (int) (k - from), 1);
                }
            }
            slices[f] = slice;
        }
        return slices;
    }

    /** Puts what {@link #slices} took from a remote body's arrays into the original body's arrays. */
    static void scatter(Object body, Object[] slices, long first, long step, long from, long to) {
        List<Field> fields = arrayFields(body.getClass());
        if (slices.length != fields.size()) {
            throw new IllegalStateException("ParallelFor: a chunk came back from another group with " + slices.length
                    + " arrays, but " + body.getClass().getName() + " has " + fields.size());
        }
        for (int f = 0; f < slices.length; f++) {
            Object array = read(fields.get(f), body);
            if (array == null || slices[f] == null) {
                continue;
            }
            int length = Array.getLength(array);
            for (long k = from; k < to; k++) {
                long index = LoopRange.index(first, step, k);
                if (index >= 0 && index < length) {
                    System.arraycopy(slices[f], (int) (k - from), array, (int) index, 1);
                }
            }
        }
    }

    private static Object read(Field field, Object body) {
        try {
            return field.get(body);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("ParallelFor: cannot read " + field + " of the loop body", e);
        }
    }
}
