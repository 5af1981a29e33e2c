package org.fastflowj.core;

/**
 * The item types of a node whose generic declaration cannot be read at run time (a lambda, an instance
 * of a generic class), so that the graph compiler can still check its wiring. {@link Node#of(Class,
 * Class, java.util.function.Function)} makes such a node.
 */
public interface ItemTypes {
    /** The class of the items the node takes ({@code Void.class} for a source). */
    Class<?> inputType();

    /** The class of the items the node emits ({@code Void.class} for a sink). */
    Class<?> outputType();
}
