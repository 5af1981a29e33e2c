package org.fastflowj.core.graph;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.HashMap;
import java.util.Map;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.ItemTypes;
import org.fastflowj.core.Node;

/**
 * Reads a node's item types, {@code I} and {@code O} of {@code Node<I, O>}, from its class declaration
 * (through any chain of generic superclasses) or from {@link ItemTypes}. A type that erasure hides (a
 * type variable, a raw superclass, a lambda behind {@code Node.of}) reads as {@code null}: unknown.
 */
final class NodeTypes {
    private static final TypeVariable<?>[] NODE_PARAMETERS = Node.class.getTypeParameters();

    private NodeTypes() {}

    /** The raw class of the node's input items, or null if unknown. */
    static Class<?> input(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            return input(c.first());
        }
        if (node instanceof ItemTypes typed) {
            return typed.inputType();
        }
        return declared(node.getClass(), 0);
    }

    /** The raw class of the node's output items, or null if unknown. */
    static Class<?> output(Node<?, ?> node) {
        if (node instanceof Combiner<?, ?> c) {
            return output(c.second());
        }
        if (node instanceof ItemTypes typed) {
            return typed.outputType();
        }
        return declared(node.getClass(), 1);
    }

    /**
     * Walks from {@code type} up to {@code Node}, carrying what each superclass's type variables were bound
     * to, so that {@code class Parser extends Stage<String>} with {@code Stage<T> extends Node<T, Reading>}
     * yields {@code String}.
     */
    private static Class<?> declared(Class<?> type, int parameter) {
        Map<TypeVariable<?>, Type> bindings = new HashMap<>();
        Class<?> current = type;
        while (current != Node.class) {
            Type superType = current.getGenericSuperclass();
            Map<TypeVariable<?>, Type> next = new HashMap<>();
            if (superType instanceof ParameterizedType p) {
                Class<?> raw = (Class<?>) p.getRawType();
                TypeVariable<?>[] variables = raw.getTypeParameters();
                Type[] arguments = p.getActualTypeArguments();
                for (int i = 0; i < variables.length; i++) {
                    next.put(variables[i], arguments[i] instanceof TypeVariable<?> v ? bindings.get(v) : arguments[i]);
                }
                current = raw;
            } else if (superType instanceof Class<?> raw) {
                current = raw; // a raw superclass: its type arguments are lost
            } else {
                return null;
            }
            bindings = next;
        }
        return rawClass(bindings.get(NODE_PARAMETERS[parameter]));
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof GenericArrayType a) {
            Class<?> component = rawClass(a.getGenericComponentType());
            return component == null ? null : component.arrayType();
        }
        return null; // a type variable or a wildcard: unknown
    }
}
