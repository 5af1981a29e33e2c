package org.fastflowj.bench.figures;

/** One figure of the suite: measures its points into the context's log, then draws them. */
interface Figure {
    /** The name used by {@code --only}, in the results and in the plot files. */
    String name();

    void run(Context context) throws Exception;
}
