package org.fastflowj.core;

import java.util.Objects;
import org.fastflowj.core.runtime.CheckedSvcException;
import org.fastflowj.core.runtime.NodeContext;
import org.fastflowj.core.runtime.Sentinel;

/**
 * Two sequential nodes fused into one, run by one thread, like function composition: every output of
 * the first node (returned or sent with {@code sendOut}) is handed straight to the second node's
 * {@code svc}.
 *
 * <pre>
 *   in ──▶ [ first.svc ──▶ second.svc ] ──▶ out      (one thread)
 * </pre>
 *
 * <p>At the seam: {@code GO_ON} from the first means nothing reaches the second; EOS from the first
 * tells the second {@code eosNotify(-1)} and ends the combiner; EOS from the second ends the combiner.
 * When the input stream ends, the first node's {@code eosNotify} runs (its {@code sendOut}s still reach
 * the second), then the second's. {@code svcInit} and {@code svcEnd} run first-then-second. The first
 * node may be a {@link MultiInputNode} and the second a {@link MultiOutputNode}; not the other way round.
 *
 * <p>Threading: as {@link Node}.
 */
public final class Combiner<I, O> extends Node<I, O> {
    private final Node<I, ?> first;
    private final Node<?, O> second;
    private final Seam seam = new Seam();
    private boolean firstEnded;

    private Combiner(Node<I, ?> first, Node<?, O> second) {
        this.first = first;
        this.second = second;
    }

    /**
     * Fuses {@code first} and {@code second}.
     *
     * @throws GraphBuildException if the first is multi-output, the second multi-input, or both are the
     *     same node
     */
    public static <I, M, O> Combiner<I, O> of(Node<I, M> first, Node<M, O> second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        if (first == second) {
            throw new GraphBuildException("Combiner.of(" + first + ", same node): a node cannot be combined with itself");
        }
        if (first.isMultiOutput()) {
            throw new GraphBuildException("Combiner.of(" + first + ", ...): the first node is multi-output, but only"
                    + " the second node of a combiner owns the combiner's output channels");
        }
        if (second.isMultiInput()) {
            throw new GraphBuildException("Combiner.of(..., " + second + "): the second node is multi-input, but only"
                    + " the first node of a combiner owns the combiner's input channels");
        }
        return new Combiner<>(first, second);
    }

    public Node<I, ?> first() {
        return first;
    }

    public Node<?, O> second() {
        return second;
    }

    @Override
    public boolean isMultiInput() {
        return first.isMultiInput();
    }

    @Override
    public boolean isMultiOutput() {
        return second.isMultiOutput();
    }

    @Override
    protected O svc(I input) throws Exception {
        throw new UnsupportedOperationException("a combiner runs its nodes' svc");
    }

    @Override
    public String toString() {
        return "Combiner(" + first + ", " + second + ")";
    }

    @Override
    void bind(NodeContext ctx, int nodeId) {
        super.bind(ctx, nodeId);
        seam.outer = ctx;
        firstEnded = false;
        first.bind(ctx == null ? null : seam, nodeId);
        second.bind(ctx, nodeId);
    }

    @Override
    Object invokeSvc(Object input) throws Exception {
        if (firstEnded) {
            return Sentinel.GO_ON;
        }
        Object result = first.call(input);
        if (result == Sentinel.GO_ON) {
            return result;
        }
        if (result == Sentinel.EOS) {
            endFirst();
            return Sentinel.EOS;
        }
        return second.call(result);
    }

    @Override
    void invokeSvcInit() throws Exception {
        first.invokeSvcInit();
        second.invokeSvcInit();
    }

    @Override
    void invokeSvcEnd() throws Exception {
        first.invokeSvcEnd();
        second.invokeSvcEnd();
    }

    @Override
    void inputEnded(int channel, boolean last) throws Exception {
        first.inputEnded(channel, last);
        if (last && !firstEnded) {
            firstEnded = true;
            second.inputEnded(0, true);
        }
    }

    private void endFirst() throws Exception {
        if (!firstEnded) {
            firstEnded = true;
            second.inputEnded(0, true);
        }
    }

    /** The first node's view: its outputs run the second node's svc on the same thread. */
    private final class Seam implements NodeContext {
        NodeContext outer;

        @Override
        public void emit(Object item) {
            if (firstEnded) {
                return;
            }
            Object result;
            try {
                result = second.call(item);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new CheckedSvcException(e);
            }
            if (result == Sentinel.EOS) {
                outer.requestEnd();
            } else if (result != Sentinel.GO_ON) {
                outer.emit(result);
            }
        }

        @Override
        public void requestEnd() {
            try {
                endFirst();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new CheckedSvcException(e);
            }
            outer.requestEnd();
        }

        @Override
        public void emitTo(Object item, int channel) {
            throw new IllegalStateException("the first node of a combiner has one output: the second node");
        }

        @Override
        public void emitFeedback(Object item, int channel) {
            throw new IllegalStateException("the first node of a combiner has one output: the second node");
        }

        @Override
        public void broadcast(Object item) {
            emit(item);
        }

        @Override
        public int inputChannel() {
            return outer.inputChannel();
        }

        @Override
        public boolean fromFeedback() {
            return outer.fromFeedback();
        }

        @Override
        public int inputChannels() {
            return outer.inputChannels();
        }

        @Override
        public int feedbackInputChannels() {
            return outer.feedbackInputChannels();
        }

        @Override
        public int outputChannels() {
            return 1;
        }

        @Override
        public int feedbackOutputChannels() {
            return 0;
        }
    }
}
