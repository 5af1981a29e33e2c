package org.fastflowj.core.runtime.node;

import java.util.function.UnaryOperator;
import org.fastflowj.core.runtime.channel.SpscChannel;

/**
 * Where a {@link NodeRunner} sends an item: {@link #emit} is the default routing (svc's result, {@code
 * sendOut}), {@link #putTo} a channel the node chose ({@code sendOutTo}, {@code sendFeedbackTo}, {@code
 * broadcast}). One implementation per output mode, chosen once when the graph is wired: no output,
 * one output, round-robin, on-demand through a dispatch, round-robin recorded for an ordered farm's
 * collector; {@link #filtering} puts an item check in front of any of them.
 *
 * <p>Threading: the node thread (the runner refuses sends from any other).
 */
public interface OutputRouter {
    /** The default routing of an item. */
    void emit(Object item);

    /** An item on the chosen channel {@code ch}, output {@code index} (-1 for a feedback output). */
    void putTo(SpscChannel ch, Object item, int index);

    /**
     * The router for {@code out}'s default outputs, as wired: recording for an ordered farm's emitter
     * ({@code orderChannel} not null), counting for a recoverable one's ({@code redeliverer} not null),
     * behind {@code filter} if the run checks items.
     */
    static OutputRouter of(
            OutputChannels out, SpscChannel orderChannel, Redeliverer redeliverer, UnaryOperator<Object> filter) {
        SpscChannel[] defaultOut = out.defaultOut;
        OutputRouter router;
        if (out.dispatch != null) {
            router = new OnDemand(out);
        } else if (orderChannel != null) {
            router = new RecordingRoundRobin(out, defaultOut, orderChannel);
        } else if (defaultOut.length == 0) {
            router = new Unrouted(out);
        } else if (defaultOut.length == 1) {
            router = new Single(out, defaultOut[0]);
        } else {
            router = new RoundRobin(out, defaultOut);
        }
        if (redeliverer != null) {
            router = redeliverer.counting(router);
        }
        return filter == null ? router : filtering(router, filter);
    }

    /** {@code router} with every item sent through {@code filter} first. */
    static OutputRouter filtering(OutputRouter router, UnaryOperator<Object> filter) {
        return new Filtering(router, filter);
    }

    /** A router whose chosen-channel sends go straight to that channel. */
    abstract class Direct implements OutputRouter {
        final OutputChannels out;

        Direct(OutputChannels out) {
            this.out = out;
        }

        @Override
        public final void putTo(SpscChannel ch, Object item, int index) {
            out.put(ch, item);
        }
    }

    /** No default output: the last stage's results are dropped, as in FastFlow. */
    final class Unrouted extends Direct {
        Unrouted(OutputChannels out) {
            super(out);
        }

        @Override
        public void emit(Object item) {
            // nowhere to go
        }
    }

    /** One default output: every item goes there. */
    final class Single extends Direct {
        private final SpscChannel channel;

        Single(OutputChannels out, SpscChannel channel) {
            super(out);
            this.channel = channel;
        }

        @Override
        public void emit(Object item) {
            out.put(channel, item);
        }
    }

    /** Several default outputs: the first with room, starting after the last one used. */
    final class RoundRobin extends Direct {
        private final SpscChannel[] channels;

        RoundRobin(OutputChannels out, SpscChannel[] channels) {
            super(out);
            this.channels = channels;
        }

        @Override
        public void emit(Object item) {
            out.route(item, channels);
        }
    }

    /** An ordered farm's emitter: round-robin, and each forward item's worker recorded for the collector. */
    final class RecordingRoundRobin implements OutputRouter {
        /** Boxed channel indices for order records, so recording allocates nothing. */
        private static final Object[] ORDER_INDEX = new Object[4096];

        static {
            for (int i = 0; i < ORDER_INDEX.length; i++) {
                ORDER_INDEX[i] = i;
            }
        }

        private final OutputChannels out;
        private final SpscChannel[] channels;
        private final SpscChannel order;

        RecordingRoundRobin(OutputChannels out, SpscChannel[] channels, SpscChannel order) {
            this.out = out;
            this.channels = channels;
            this.order = order;
        }

        @Override
        public void emit(Object item) {
            int index = out.route(item, channels);
            if (index >= 0) {
                record(index);
            }
        }

        @Override
        public void putTo(SpscChannel ch, Object item, int index) {
            if (out.put(ch, item) && !ch.feedback) {
                record(index);
            }
        }

        /** An order record for the collector: the item just sent went to worker {@code index}. */
        private void record(int index) {
            out.putControl(order, index < ORDER_INDEX.length ? ORDER_INDEX[index] : Integer.valueOf(index));
        }
    }

    /** On-demand slots: items go on the staging channel, and the dispatch hands them to idle workers. */
    final class OnDemand extends Direct {
        OnDemand(OutputChannels out) {
            super(out);
        }

        @Override
        public void emit(Object item) {
            if (out.eosSent()) {
                throw out.alreadyEnded();
            }
            out.stage(item);
        }
    }

    /** Any router with an item check in front (ff-dist's serialization check). */
    final class Filtering implements OutputRouter {
        private final OutputRouter next;
        private final UnaryOperator<Object> filter;

        Filtering(OutputRouter next, UnaryOperator<Object> filter) {
            this.next = next;
            this.filter = filter;
        }

        @Override
        public void emit(Object item) {
            next.emit(filter.apply(item));
        }

        @Override
        public void putTo(SpscChannel ch, Object item, int index) {
            next.putTo(ch, filter.apply(item), index);
        }
    }
}
