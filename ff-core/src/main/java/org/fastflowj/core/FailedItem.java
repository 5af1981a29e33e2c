package org.fastflowj.core;

/**
 * An item whose {@code svc} threw, as {@link NodeErrors#deadLetter} hands it on.
 *
 * @param item the input item ({@code null} for a source's call)
 * @param node the node's name ({@link Node#named}), else its thread's name (its place in the tree)
 * @param error what {@code svc} threw
 */
public record FailedItem(Object item, String node, Exception error) {}
