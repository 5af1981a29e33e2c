package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bridge SPI ff-dist builds on, driven in one process: closing an input (a remote consumer ended),
 * ending one output at a time (a remote producer ended), the end of a feedback input, the idle call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BridgeNodeTest {
    /** Stands for a sender whose remote consumer ended before anything was sent: it closes its input. */
    static final class ClosingSender extends MultiInputNode<Long, Void> implements BridgeNode {
        final List<String> events = new CopyOnWriteArrayList<>();
        private BridgeContext context;
        volatile int idleCalls;
        volatile long taken;

        @Override
        public void attach(BridgeContext ctx) {
            context = ctx;
        }

        @Override
        protected void svcInit() throws InterruptedException {
            context.closeInput(0, false);
            events.add("closed");
            // Take nothing for a while: the producer fills the channel, notices the close, ends, and its
            // EOS finds the channel full (and its consumer marked gone), so it is dropped.
            Thread.sleep(200);
        }

        @Override
        protected Void svc(Long item) {
            taken++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            events.add("eos " + channel);
        }

        @Override
        public void inputIdle(boolean aboutToPark) {
            if (idleCalls++ == 0) {
                events.add("idle");
            }
        }
    }

    @Test
    void shouldEndAClosedInputOnceItsProducerEndedEvenThoughItsEosWasDropped() {
        AtomicLong produced = new AtomicLong();
        Node<Void, Long> endless = new Node<>() {
            @Override
            protected Long svc(Void none) {
                return produced.incrementAndGet();
            }
        };
        ClosingSender sender = new ClosingSender();

        new Pipeline(endless, sender).runAndWaitEnd(RunOptions.defaults().queueCapacity(8));

        // the source ended because its only consumer was gone (early termination); its EOS was dropped,
        // and the bridge still saw the channel end once, on its first wait after taking what was queued
        assertThat(sender.events).containsExactly("closed", "eos 0", "idle");
        assertThat(sender.taken).isEqualTo(8);
        assertThat(produced.get()).isPositive();
    }

    /** Stands for a receiver: sends on two outputs and ends them one at a time, then ends itself. */
    static final class EndingReceiver extends MultiOutputNode<Void, Long> implements BridgeNode {
        private BridgeContext context;
        private int step;

        @Override
        public void attach(BridgeContext ctx) {
            context = ctx;
        }

        @Override
        protected Long svc(Void none) {
            switch (step++) {
                case 0 -> sendOutTo(1L, 0);
                case 1 -> context.endOutput(0, false); // output 0's remote producer ended
                case 2 -> sendOutTo(2L, 1);
                case 3 -> context.endOutput(1, false);
                default -> {
                    return eos(); // the node's own end must not send a second EOS on either output
                }
            }
            return goOn();
        }
    }

    static final class Gather extends MultiInputNode<Long, Void> {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        protected Void svc(Long item) {
            events.add(inputChannel() + ":" + item);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            events.add("eos " + channel);
        }
    }

    @Test
    void shouldEndEachOutputWhenTheBridgeSaysSoAndNeverTwice() {
        Gather left = new Gather();
        Gather right = new Gather();
        EndingReceiver receiver = new EndingReceiver();

        new AllToAll().firstSet(receiver).secondSet(left, right).runAndWaitEnd();

        assertThat(left.events).containsExactly("0:1", "eos 0");
        assertThat(right.events).containsExactly("0:2", "eos 0");
    }

    /**
     * Stands for a sender to a remote on-demand worker that has no room: it holds its input until the local
     * worker has done {@link #LOCAL_FIRST} items, then takes the rest as they come.
     */
    static final class HoldingSender extends MultiInputNode<Long, Void> implements BridgeNode {
        static final int LOCAL_FIRST = 200;
        private final AtomicLong localDone;
        private BridgeContext context;
        private boolean held;
        volatile long takenWhileHeld;
        volatile long taken;
        volatile int eosSeen;

        HoldingSender(AtomicLong localDone) {
            this.localDone = localDone;
        }

        @Override
        public void attach(BridgeContext ctx) {
            context = ctx;
        }

        @Override
        protected void svcInit() {
            context.holdInput(0, true);
            held = true;
        }

        @Override
        protected Void svc(Long item) {
            if (held) {
                takenWhileHeld++;
            }
            taken++;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosSeen++;
        }

        @Override
        public void inputIdle(boolean aboutToPark) {
            if (held && localDone.get() >= LOCAL_FIRST) {
                context.holdInput(0, false);
                held = false;
            }
        }
    }

    @Test
    void shouldGiveAnOnDemandProducersItemsToOtherWorkersWhileABridgeHoldsItsInput() {
        int items = 1_000;
        AtomicLong produced = new AtomicLong();
        AtomicLong localDone = new AtomicLong();
        MultiOutputNode<Void, Long> producer = new MultiOutputNode<>() {
            @Override
            protected Long svc(Void none) {
                long next = produced.getAndIncrement();
                return next < items ? Long.valueOf(next) : eos();
            }
        };
        Node<Long, Void> local = new Node<>() {
            @Override
            protected Void svc(Long item) {
                localDone.incrementAndGet();
                return goOn();
            }
        };
        HoldingSender sender = new HoldingSender(localDone);

        new AllToAll().firstSet(producer).secondSet(sender, local).onDemand().runAndWaitEnd();

        // held: nothing taken (its one slot stays full, so the dispatch skips it); let go: it takes items
        // again, and every item went exactly one way, with one EOS for the bridge
        assertThat(sender.takenWhileHeld).isZero();
        assertThat(localDone.get()).isGreaterThanOrEqualTo(HoldingSender.LOCAL_FIRST);
        assertThat(sender.taken + localDone.get()).isEqualTo(items);
        assertThat(sender.eosSeen).isEqualTo(1);
    }
}
