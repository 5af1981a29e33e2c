package org.fastflowj.patterns;

/** Folds one index into a worker's {@code double} partial result, unboxed. */
@FunctionalInterface
public interface DoubleReduceBody {
    double apply(double partial, long index);
}
