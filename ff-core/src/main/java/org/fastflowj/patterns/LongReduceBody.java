package org.fastflowj.patterns;

/** Folds one index into a worker's {@code long} partial result, unboxed. */
@FunctionalInterface
public interface LongReduceBody {
    long apply(long partial, long index);
}
