package org.fastflowj.core;

/**
 * Statistics of one network link of a distributed group (one direction of one connection).
 *
 * @param link what the link joins, such as {@code "G1 -> G2"}
 * @param messages items, EOS and end marks carried
 * @param bytes payload bytes carried (frame headers included)
 * @param batches frames carried
 * @param creditWaitNanos time the sender waited for the receiver's credit (flow control)
 */
public record LinkStats(String link, long messages, long bytes, long batches, long creditWaitNanos) {}
