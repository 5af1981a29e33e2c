package org.fastflowj.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.fastflowj.core.spi.CheckedSvcException;
import org.fastflowj.core.spi.NodeContext;
import org.fastflowj.core.spi.PhaseFailure;
import org.fastflowj.core.spi.Sentinel;

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
 * node may be a {@link MultiInputNode} and the second a {@link MultiOutputNode}. A multi-input second
 * node (as in FastFlow's {@code ff_comb} of two {@code ff_minode}s) sees the channel of the item that
 * entered the combiner, and gets {@code eosNotify(0)} once, when the first node's stream ends. The
 * first node cannot be multi-output: only the second owns the combiner's output channels.
 *
 * <p>Threading: as {@link Node}.
 */
public final class Combiner<I, O> extends Node<I, O> {
    private final Node<I, ?> first;
    private final Node<?, O> second;
    /*
     * Each part again, as a combiner or as a leaf (the other one null). A nested combiner is called as
     * the final class it is (a direct call); a leaf's svc is called here, not through Node.call and
     * invokeSvc. Per item a chain of N fused nodes then costs N svc calls and N - 1 direct calls, not
     * about 3N virtual calls. And the svc calls sit at two call sites of this class, one per position,
     * each seeing only the node classes that occur there: with few of them the JIT inlines their svc,
     * where a call site shared by every node of the JVM (as in Node.call) only dispatches.
     */
    private final Combiner<I, ?> firstCombiner;
    private final Combiner<?, O> secondCombiner;
    private final Node<Object, ?> firstLeaf;
    private final Node<Object, ?> secondLeaf;
    private final Seam seam = new Seam();
    private boolean firstEnded;
    private boolean secondEnded;
    private boolean secondTold;

    private Combiner(Node<I, ?> first, Node<?, O> second) {
        this.first = first;
        this.second = second;
        this.firstCombiner = first instanceof Combiner<I, ?> c ? c : null;
        this.secondCombiner = second instanceof Combiner<?, O> c ? c : null;
        this.firstLeaf = firstCombiner == null ? asLeaf(first) : null;
        this.secondLeaf = secondCombiner == null ? asLeaf(second) : null;
    }

    /** The node typed to take any item: the combiner hands it exactly what the previous node produced. */
    @SuppressWarnings("unchecked")
    private static Node<Object, ?> asLeaf(Node<?, ?> node) {
        return (Node<Object, ?>) node;
    }

    /**
     * Fuses {@code first} and {@code second}.
     *
     * @throws GraphBuildException if the first is multi-output, or both are the same node
     */
    public static <I, M, O> Combiner<I, O> of(Node<I, M> first, Node<M, O> second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        if (first == second) {
            throw new GraphBuildException(
                    "Combiner.of(" + first + ", same node): a node cannot be combined with itself");
        }
        if (first.isMultiOutput()) {
            throw new GraphBuildException("Combiner.of(" + first + ", ...): the first node is multi-output, but only"
                    + " the second node of a combiner owns the combiner's output channels");
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

    /**
     * Refused: each fused node has its own policy ({@code first.onError(...)}, {@code
     * second.onError(...)}), applied to its own {@code svc}.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Combiner<I, O> onError(NodeErrors policy) {
        throw new UnsupportedOperationException(
                this + ": set the error policy on the nodes it fuses, each applies to its own svc");
    }

    @Override
    void collectCounters(List<NodeCounter> into) {
        first.collectCounters(into);
        second.collectCounters(into);
    }

    /**
     * Whether {@code error} came out of the seam {@code ctx} is (a later node threw on an item sent to
     * it), not from the node whose context it is: that node's policy does not apply to it.
     */
    static boolean passedOn(NodeContext ctx, Exception error) {
        return ctx instanceof Combiner<?, ?>.Seam seam && seam.passedOn == error;
    }

    @Override
    void bind(NodeContext ctx, int nodeId) {
        super.bind(ctx, nodeId);
        seam.outer = ctx;
        seam.closed = false;
        firstEnded = false;
        secondEnded = false;
        secondTold = false;
        first.bind(ctx == null ? null : seam, nodeId);
        second.bind(ctx, nodeId);
    }

    @Override
    Object invokeSvc(Object input) throws Exception {
        if (firstEnded || secondEnded) {
            return Sentinel.GO_ON;
        }
        Combiner<I, ?> inner = firstCombiner;
        Node<Object, ?> leaf = firstLeaf;
        // A combiner's invokeSvc never returns null and sets no signal: it needs no settle().
        Object result;
        if (inner != null) {
            result = inner.invokeSvc(input);
        } else {
            try {
                result = leaf.svc(input);
            } catch (Exception e) {
                result = leaf.failed(input, e);
            }
            result = leaf.settle(result);
        }
        if (secondEnded) {
            return Sentinel.EOS; // the second ended on an item the first sent during this call
        }
        if (result == Sentinel.GO_ON) {
            return result;
        }
        if (result == Sentinel.EOS) {
            endFirst();
            return Sentinel.EOS;
        }
        return toSecond(result);
    }

    private Object toSecond(Object item) throws Exception {
        Combiner<?, O> inner = secondCombiner;
        Node<Object, ?> leaf = secondLeaf;
        Object result;
        if (inner != null) {
            result = inner.invokeSvc(item);
        } else {
            try {
                result = leaf.svc(item);
            } catch (Exception e) {
                result = leaf.failed(item, e);
            }
            result = leaf.settle(result);
        }
        if (result == Sentinel.EOS) {
            secondEnded = true;
        }
        return result;
    }

    @Override
    void invokeSvcInit() throws Exception {
        // Items the first sends from its svcInit wait until the second is initialised too.
        List<Object> early = new ArrayList<>();
        seam.initBuffer = early;
        try {
            first.invokeSvcInit();
        } finally {
            seam.initBuffer = null;
        }
        second.invokeSvcInit();
        for (Object item : early) {
            if (item == Sentinel.EOS) {
                seam.requestEnd();
            } else {
                seam.emit(item);
            }
        }
    }

    @Override
    void invokeSvcEnd() throws Exception {
        seam.closed = true;
        // Both nodes get their svcEnd (they may hold resources); the first failure is the one reported.
        Throwable failure = null;
        try {
            first.invokeSvcEnd();
        } catch (Exception | Error e) {
            failure = e;
        }
        try {
            second.invokeSvcEnd();
        } catch (Exception | Error e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure instanceof Exception e) {
            throw e;
        } else if (failure instanceof Error e) {
            throw e;
        }
    }

    @Override
    void inputEnded(int channel, boolean last) throws Exception {
        first.inputEnded(channel, last);
        if (last) {
            // As FastFlow's ff_comb: the second hears of the end once every input EOS arrived. A loop
            // head's seam stays open after that: fed-back items still go through both nodes.
            tellSecondInputEnded();
        }
    }

    /** The first node ended its stream (eos()): nothing more reaches the second, which is told once. */
    private void endFirst() {
        if (!firstEnded) {
            firstEnded = true;
            tellSecondInputEnded();
        }
    }

    private void tellSecondInputEnded() {
        if (secondTold || secondEnded) {
            return;
        }
        secondTold = true;
        try {
            second.inputEnded(0, true);
        } catch (Exception | Error e) {
            throw new PhaseFailure("eosNotify", e);
        }
    }

    /** The first node's view: its outputs run the second node's svc on the same thread. */
    final class Seam implements NodeContext {
        NodeContext outer;
        /** Non-null while the first node runs svcInit. */
        List<Object> initBuffer;
        /** Set for svcEnd: the combiner's EOS has gone out. */
        boolean closed;
        /** The last exception thrown out of the second node to the first: not the first node's to handle. */
        Exception passedOn;

        @Override
        public void emit(Object item) {
            if (closed) {
                throw new IllegalStateException("the node already sent its EOS: items cannot be sent from svcEnd"
                        + " (send final items from eosNotify, which runs before the EOS)");
            }
            if (initBuffer != null) {
                initBuffer.add(item);
                return;
            }
            if (firstEnded || secondEnded) {
                return;
            }
            Object result;
            try {
                result = toSecond(item);
            } catch (RuntimeException e) {
                passedOn = e;
                throw e;
            } catch (Error e) {
                throw e;
            } catch (Exception e) {
                CheckedSvcException wrapped = new CheckedSvcException(e);
                passedOn = wrapped;
                throw wrapped;
            }
            if (result == Sentinel.EOS) {
                outer.requestEnd();
            } else if (result != Sentinel.GO_ON) {
                outer.emit(result);
            }
        }

        @Override
        public void requestEnd() {
            if (initBuffer != null) {
                initBuffer.add(Sentinel.EOS);
                return;
            }
            if (closed) {
                return;
            }
            if (outer.feedbackInputChannels() == 0) {
                endFirst();
            }
            // A loop head drains the loop after sendOut(eos()): fed-back items still go through both nodes.
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
        public void holdInput(int channel, boolean hold) {
            outer.holdInput(channel, hold);
        }

        @Override
        public boolean cancelled() {
            return outer.cancelled();
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
