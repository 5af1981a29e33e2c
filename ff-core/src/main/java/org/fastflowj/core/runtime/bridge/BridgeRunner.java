package org.fastflowj.core.runtime.bridge;

import static org.fastflowj.core.runtime.channel.Parker.WAIT_INPUT;
import static org.fastflowj.core.runtime.channel.Parker.WAIT_OUTPUT;

import java.util.concurrent.CancellationException;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.Affinity;
import org.fastflowj.core.runtime.control.Cancelled;
import org.fastflowj.core.runtime.control.FatalErrors;
import org.fastflowj.core.runtime.control.RunControl;

/**
 * Runs one {@link BridgeTask} on its own platform thread, named after its vertex ({@code ff-send-G2},
 * {@code ff-recv-G1}): {@code doWork} while it finds work, an idle step of the run's {@link IdleStrategy}
 * when it finds none (the task hears of it first, {@code onIdle}), until the task is done; then {@code
 * close}, and its channels are marked ended at both sides, as a node's are. The executor creates it for a
 * bridge vertex instead of a {@link org.fastflowj.core.runtime.node.NodeRunner}; it is the {@link Parker} of the bridge's channels.
 *
 * <p>The idle step is the waiter's half of the {@link Parker} handshake: announce, wake neighbours a
 * skipped fence may have left asleep, re-check ({@link BridgeTask#workPending}), park with a time-out.
 *
 * <p>Threading: its own thread; other threads read only the park state and the channels' end flags.
 */
public final class BridgeRunner extends ChannelEnd {
    final BridgeTask task;
    final RunControl control;
    final IdlePolicy idle;
    private final int cpuRequest;
    private final boolean cpuClaimed;
    /**
     * "node NAME", as a node's failures name it (reports and the launcher read bridge failures the same
     * way), built before any out-of-memory: a fatal error's report must not need a new string.
     */
    private final String fatalErrorSite;

    private BridgeChannels channels;
    private IdleStrategy idler;
    private final Parker.WaitCondition workArrived = this::workArrived;

    // statistics, read after the thread ended
    private long blockedInNanos;
    private long startNanos;
    private long endNanos;
    private int cpu = -1;

    public BridgeRunner(
            Vertex vertex, BridgeTask task, RunControl control, IdlePolicy idle, int cpuRequest, boolean cpuClaimed) {
        super(vertex.name());
        this.task = task;
        this.control = control;
        this.idle = idle;
        this.cpuRequest = cpuRequest;
        this.cpuClaimed = cpuClaimed;
        this.fatalErrorSite = "node " + name;
    }

    /** Connects the runner to its channels; once, before its thread starts and after every runner exists. */
    public void wire(
            SpscChannel[] forwardIn, SpscChannel[] feedbackIn, SpscChannel[] forwardOut, SpscChannel[] feedbackOut) {
        this.channels = new BridgeChannels(this, forwardIn, feedbackIn, forwardOut, feedbackOut);
        boolean shortInputs = false;
        for (SpscChannel ch : forwardIn) {
            shortInputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
        }
        this.idler = new IdleStrategy(shortInputs ? idle.forShortChannels() : idle);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        startNanos = System.nanoTime();
        String phase = "svcInit";
        try {
            cpu = cpuClaimed ? Affinity.pinClaimed(cpuRequest, control) : Affinity.pin(cpuRequest, name, control);
            task.init(channels);
            phase = "svc";
            while (!task.isDone()) {
                control.checkCancelled();
                if (task.doWork() > 0) {
                    idler.reset();
                } else {
                    idle();
                }
            }
            control.checkCancelled(); // a cancelled bridge sends no end
            phase = "svcEnd";
            task.close();
            channels.endOpenOutputs();
        } catch (Cancelled cancelled) {
            // another thread failed first; it is the one reported
            abortTask();
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                FatalErrors.halt(fatalErrorSite, t);
            }
            // A task that saw the run's cancellation before this thread did says so with a
            // CancellationException: the cancellation, not a failure of the bridge.
            if (!(control.cancelled && t instanceof CancellationException)) {
                control.fail(name, phase, t);
            }
            abortTask();
        } finally {
            if (cpuClaimed) {
                Affinity.release(cpuRequest);
            }
            endChannels(); // once: the run's last step
            endNanos = System.nanoTime();
            control.runnerEnded();
        }
    }

    /** Nothing done: the task hears of it, then one step of the wait (spin, yield, or park). */
    private void idle() throws Exception {
        long start = System.nanoTime();
        task.onIdle(idler.parksNext());
        // Waiting for room, the park is announced as such on that channel: its consumer's takes wake it
        // (SpscChannel#tookOne); the event loop's Parker#wake wakes any announced park.
        SpscChannel room = channels.awaitedOutput;
        if (!task.isDone()) {
            pause(idler, room == null ? WAIT_INPUT : WAIT_OUTPUT, room, workArrived, task.maxParkNanos());
        }
        if (room == null) {
            blockedInNanos += System.nanoTime() - start;
        } else {
            channels.blockedOutNanos += System.nanoTime() - start;
        }
    }

    /** The park's re-check: what the task waits for arrived ({@link BridgeTask#workPending}), or the run ended. */
    private boolean workArrived() {
        return control.cancelled || task.workPending();
    }

    /** After a failure or cancellation: the task releases what it holds; the run's failure is reported already. */
    private void abortTask() {
        try {
            task.abort();
        } catch (RuntimeException e) {
            // the run failed already: this second failure would only hide the first
        }
    }

    @Override
    public SpscChannel[] inputs() {
        return channels.inputs;
    }

    @Override
    protected SpscChannel[] consumed() {
        return channels == null ? null : channels.inputs;
    }

    @Override
    protected SpscChannel[] produced() {
        return channels == null ? null : channels.produced;
    }

    /** A bridge hands over a received batch's items to a channel in {@link Chunk}s. */
    @Override
    public boolean sendsChunks() {
        return true;
    }

    @Override
    public NodeStats stats() {
        long total = Math.max(0, endNanos - startNanos);
        long blockedOut = channels == null ? 0 : channels.blockedOutNanos;
        long work = Math.max(0, total - blockedInNanos - blockedOut);
        long in = channels == null ? 0 : channels.itemsIn;
        long out = channels == null ? 0 : channels.itemsOut;
        return new NodeStats(name, in, out, work, blockedInNanos, blockedOut, cpu);
    }

    @Override
    public String toString() {
        return name;
    }
}
