package org.fastflowj.patterns;

/** Folds one index into a worker's partial result, returning the new partial (which may be the same object). */
@FunctionalInterface
public interface ReduceBody<R> {
    R apply(R partial, long index);
}
