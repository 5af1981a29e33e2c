package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.graph.Vertex;

/**
 * The loop of one node thread: take an item from an input channel, run {@code svc}, put the results on
 * output channels; wait by the run's {@link IdlePolicy} when inputs are empty or outputs full.
 *
 * <pre>
 *   inputs (forward 0..f-1, feedback f..)        outputs (forward, feedback)
 *   ──▶ SPSC ─┐                               ┌─▶ SPSC ──▶   round-robin / on-demand,
 *   ──▶ SPSC ─┼─▶ poll, one per channel ─▶ svc ┼─▶ SPSC ──▶   or chosen by the node
 *   ──▶ SPSC ─┘   in turn                     └─▶ SPSC ──▶
 * </pre>
 *
 * <p>End of stream: EOS on a forward input calls the node's {@code inputEnded}; when every forward
 * input ended (and every feedback producer is done), or when {@code svc} returns EOS, the node sends EOS
 * on its forward outputs, marks its channels ended, closes its inputs (producers then drop instead of
 * waiting) and runs {@code svcEnd}. A node whose every forward consumer is gone ends the same way
 * (feedback consumers do not count: the loop head ends a loop by sending EOS forward through it).
 *
 * <p>This class holds the life cycle (svcInit, the per-item loops, EOS, svcEnd); the rest of the runner
 * is split over its superclasses, one duty each (see {@link NodeRunnerState}).
 *
 * <p>Threading: one thread runs all of this; other threads only read the park state and the channels'
 * end flags. Per item the hot path takes no lock and allocates nothing.
 */
class NodeRunner extends NodeRunnerContext implements Runnable {
    /** A runner padded at its end too: what the executor creates (see {@link Padded}). */
    static NodeRunner create(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        return new Padded(vertex, control, idle, cpuRequest);
    }

    /**
     * 128 bytes after the runner's own fields, which its thread writes on every item: without them the
     * next object in memory (often a channel both threads read on every item) shares their cache line.
     */
    @SuppressWarnings("unused")
    private static final class Padded extends NodeRunner {
        private long p00, p01, p02, p03, p04, p05, p06, p07;
        private long p10, p11, p12, p13, p14, p15, p16, p17;

        Padded(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
            super(vertex, control, idle, cpuRequest);
        }
    }

    private NodeRunner(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        ownThread = thread;
        startNanos = System.nanoTime();
        try {
            cpu = Affinity.pin(cpuRequest, name, control);
            access.bind(node, this, nodeId);
            if (bridge != null) {
                bridge.attach(this);
            }
            access.svcInit(node);
            phase = "svc";
            if (inputs.length == 0) {
                while (produceBatch()) {
                    // next batch
                }
            } else {
                if (forwardInputs == 0) {
                    callSvc(null); // head of a feedback loop with no other input: start the loop
                }
                while (consumeBatch()) {
                    // next batch
                }
            }
            control.checkCancelled(); // a cancelled node sends no EOS and runs no svcEnd
            phase = "svc";
            if (redelivery != null) {
                awaitRedeliveriesSettled();
            }
            if (bridge != null) {
                notifyBridgeInputEnds(); // the stream is over, so every feedback input has ended
            }
            sendEos();
            markEnded();
            phase = "svcEnd";
            access.bind(node, new EndedContext(this), nodeId);
            access.svcEnd(node);
        } catch (Cancelled cancelled) {
            // another node failed first; it is the one reported
        } catch (PhaseFailure f) {
            failOrHalt(f.phase(), unwrap(f.getCause()));
        } catch (Throwable t) {
            failOrHalt(phase, unwrap(t));
        } finally {
            markEnded();
            access.bind(node, null, nodeId);
            endNanos = System.nanoTime();
            control.runnerEnded();
        }
    }

    /*
     * The per-item loops live in small methods that return every BATCH items: the JIT then compiles them
     * whole, with svc and the channel calls inlined, instead of on-stack-replacing the long run() loop.
     */
    private static final int BATCH = 1024;

    /** A source: up to BATCH calls of svc(null); false once the node ended. */
    private boolean produceBatch() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            if (endRequested || control.cancelled) {
                return false;
            }
            if (redelivery != null && redelivery.pending()) {
                redeliver();
            }
            callSvc(null);
        }
        return !endRequested;
    }

    /** Up to BATCH input items through svc; false once the stream is over or the node ended. */
    private boolean consumeBatch() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            if (endRequested || control.cancelled) {
                return false;
            }
            if (redelivery != null && redelivery.pending()) {
                redeliver();
            }
            Object item = nextItem();
            if (item == null) {
                return false;
            }
            // A chunk is told apart where the item's class was just loaded for the Sentinel test: one more
            // compare with a constant per plain item, no memory access.
            if (item instanceof Chunk chunk) {
                consumeChunk(chunk);
                continue;
            }
            itemsIn++;
            callSvc(item);
        }
        return !endRequested;
    }

    /** A bridge's chunk, item by item, as if each had come alone (the rest is dropped if the node ends). */
    private void consumeChunk(Chunk chunk) throws Exception {
        Object[] items = chunk.items;
        for (int i = 0, n = chunk.size; i < n && !endRequested && !control.cancelled; i++) {
            itemsIn++;
            callSvc(items[i]);
        }
    }

    /** A node's failure fails the run; an out-of-memory or another JVM error halts the JVM (see FatalErrors). */
    private void failOrHalt(String failedPhase, Throwable cause) {
        if (FatalErrors.isFatal(cause)) {
            FatalErrors.halt(fatalErrorSite, cause);
        }
        control.fail(name, failedPhase, cause);
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CheckedSvcException && t.getCause() != null ? t.getCause() : t;
    }

    private void callSvc(Object item) throws Exception {
        Object result = access.svc(node, item);
        if (result == Sentinel.GO_ON) {
            // nothing to send
        } else if (result == Sentinel.EOS) {
            endRequested = true;
        } else { // never null: Node.call turns a bare null into an error naming the node
            emitResult(result);
        }
        if (orderRole == Vertex.OrderRole.MARK && item != null && !endRequested) {
            sendMarks();
        }
    }

    /** Tells both sides this node is done: consumers stop waiting for it, producers stop feeding it. */
    private void markEnded() {
        if (endMarked) {
            return;
        }
        endMarked = true;
        for (SpscChannel ch : forwardOut) {
            ch.producerDone = true;
        }
        for (SpscChannel ch : feedbackOut) {
            ch.producerDone = true;
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            orderChannel.producerDone = true;
        } else if (orderRole == Vertex.OrderRole.COLLECT) {
            orderChannel.consumerGone = true;
        }
        for (SpscChannel ch : inputs) {
            ch.consumerGone = true;
        }
        VarHandle.fullFence();
        for (SpscChannel ch : forwardOut) {
            ch.consumer.wakeAnyway();
        }
        for (SpscChannel ch : feedbackOut) {
            ch.consumer.wakeAnyway();
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            orderChannel.consumer.wakeAnyway();
        } else if (orderRole == Vertex.OrderRole.COLLECT) {
            orderChannel.producer.wakeAnyway();
        }
        for (SpscChannel ch : inputs) {
            ch.producer.wakeAnyway();
        }
        for (SpscChannel ch : dispatchedInputs) {
            ch.dispatch.consumerEnded();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
