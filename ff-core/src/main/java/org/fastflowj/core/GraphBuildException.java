package org.fastflowj.core;

/** A building-block tree that is not a legal composition; the message names the block and the rule. */
public class GraphBuildException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public GraphBuildException(String message) {
        super(message);
    }
}
