package org.fastflowj.core.spi;

/**
 * The engine's door into a node's protected life-cycle methods ({@code svc}, {@code svcInit}, ...). The
 * API package creates the only instance and hands it to the {@link Engine} it loads ({@link
 * Engine#attach}); nothing else can create, replace or look one up, so user code keeps seeing those
 * methods as protected while the engine, in another package, can call them.
 *
 * <p>The node type is a parameter so that this package depends on nothing of the API's.
 *
 * @param <N> the API's node type
 */
public interface NodeLifecycle<N> {
    /** Gives a node the context its outputs go through, and its id in the graph. */
    void bind(N node, NodeContext context, int id);

    void svcInit(N node) throws Exception;

    /** Runs {@code svc} and returns its result: an item, {@link Sentinel#GO_ON} or {@link Sentinel#EOS}. */
    Object svc(N node, Object input) throws Exception;

    /**
     * Forward input {@code channel} delivered EOS; {@code last} when it was the last live one. The node
     * decides which {@code eosNotify} calls that means for it (per channel, once, or down a combiner).
     */
    void inputEnded(N node, int channel, boolean last) throws Exception;

    void svcEnd(N node) throws Exception;
}
