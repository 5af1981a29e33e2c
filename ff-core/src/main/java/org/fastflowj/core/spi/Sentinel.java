package org.fastflowj.core.spi;

/**
 * The control values that travel on channels or are returned from {@code svc}: never user data, one
 * static instance each, so nothing is allocated per message and a reference comparison identifies them.
 */
public sealed class Sentinel permits CheckpointBarrier {
    /** End of stream: returned from {@code svc} to end a node, sent on a channel to end its consumer. */
    public static final Object EOS = new Sentinel("EOS");
    /** No output this time, keep going. Never put on a channel. */
    public static final Object GO_ON = new Sentinel("GO_ON");
    /** Ordered farm: "the worker finished the task it was given", one per task, worker to collector. */
    public static final Object TASK_DONE = new Sentinel("TASK_DONE");
    /** Ordered farm: the emitter sent its last task, emitter to collector on the order channel. */
    public static final Object ORDER_END = new Sentinel("ORDER_END");

    private final String name;

    Sentinel(String name) {
        this.name = name;
    }

    /** True for any control value: user code must never see one as an item. */
    public static boolean isSentinel(Object item) {
        return item instanceof Sentinel;
    }

    @Override
    public String toString() {
        return name;
    }
}
