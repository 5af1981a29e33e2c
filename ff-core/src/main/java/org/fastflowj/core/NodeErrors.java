package org.fastflowj.core;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a node does when its {@code svc} throws on an item, set with {@link Node#onError}. {@link #fail()}
 * is the default: the run ends and {@code waitEnd()} throws a {@link NodeFailedException} naming the node.
 * {@link #skip()} drops the item, counts it in the node's {@code "skipped"} {@linkplain NodeCounter
 * counter} and goes on with the next; {@link #deadLetter(Consumer)} hands a {@link FailedItem} (the item,
 * the node's name, the exception) to a consumer, counts it in {@code "dead-lettered"} and goes on. The
 * same choice as ff-stream's {@code ErrorPolicy}, for a node of the building blocks.
 *
 * <p>Only {@code svc} is covered: a failure in {@code svcInit}, {@code eosNotify} or {@code svcEnd},
 * a JVM {@link Error}, a cancelled run, and an exception that a later node of the same {@link Combiner}
 * threw on an item sent to it, are not the item's and still end the run (the later node's own policy
 * applies to that one). Items the node sent with {@code sendOut} before it threw have gone on.
 *
 * <p>The dead-letter consumer runs on the node's thread, inside the run: it should be quick, and if it
 * throws, the run fails. A node placed in a distributed group runs in that group's process, so its
 * consumer is called there, on the node object that process built; it does not reach the launching
 * program's.
 */
public final class NodeErrors {
    private static final NodeErrors FAIL = new NodeErrors(false, null);
    private static final NodeErrors SKIP = new NodeErrors(true, null);

    final boolean skip;
    final Consumer<? super FailedItem> deadLetters;

    private NodeErrors(boolean skip, Consumer<? super FailedItem> deadLetters) {
        this.skip = skip;
        this.deadLetters = deadLetters;
    }

    /** The run fails on the first exception of {@code svc} (the default). */
    public static NodeErrors fail() {
        return FAIL;
    }

    /** The item is dropped and counted in the node's {@code "skipped"} counter. */
    public static NodeErrors skip() {
        return SKIP;
    }

    /** The item goes to {@code sink} as a {@link FailedItem} and is counted in {@code "dead-lettered"}. */
    public static NodeErrors deadLetter(Consumer<? super FailedItem> sink) {
        return new NodeErrors(false, Objects.requireNonNull(sink, "sink"));
    }

    boolean fails() {
        return !skip && deadLetters == null;
    }

    @Override
    public String toString() {
        return skip ? "skip" : deadLetters != null ? "deadLetter(" + deadLetters + ")" : "fail";
    }
}
