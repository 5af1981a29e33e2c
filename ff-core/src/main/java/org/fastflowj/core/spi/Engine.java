package org.fastflowj.core.spi;

/**
 * What the API package needs of the engine: compile, optimize, start and draw a block, and the two
 * stages around an accelerated block. The API finds the one implementation with {@link
 * java.util.ServiceLoader} ({@code uses}/{@code provides} in {@code module-info}, {@code
 * META-INF/services} on the class path), once, and accepts only a provider from its own module.
 *
 * <p>The API's types are parameters so that this package depends on nothing of the API's and the API
 * on nothing of the engine's: the packages form no cycle.
 *
 * @param <B> the API's building block
 * @param <O> the API's run options
 * @param <S> the API's run statistics
 * @param <N> the API's node
 */
public interface Engine<B, O, S, N> {
    /** Receives the API's door into its nodes, once, before any other call. */
    void attach(NodeLifecycle<N> lifecycle);

    /**
     * Optimizes and compiles {@code block} and starts it; returns at once.
     *
     * @param placement which runner may take the block's graph
     */
    EngineRun<S> start(B block, O options, Placement placement);

    /** The graph {@link #start} would run, in Graphviz DOT; starts nothing. */
    String toDot(B block, O options);

    /** The input and output stages of an accelerated block, waiting as {@code options} says. */
    AcceleratorEnds<N> acceleratorEnds(O options);
}
