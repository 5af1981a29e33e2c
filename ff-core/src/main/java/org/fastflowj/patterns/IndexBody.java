package org.fastflowj.patterns;

/** The body of a parallel loop: called once per index, on whichever worker runs that index. */
@FunctionalInterface
public interface IndexBody {
    void apply(long index);
}
