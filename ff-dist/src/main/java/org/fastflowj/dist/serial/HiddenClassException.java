package org.fastflowj.dist.serial;

/**
 * An item holds an object of a hidden class, a lambda's most often: its class exists only in the JVM that
 * defined it, so no receiver can find it by name, and the sender refuses it before anything is sent.
 */
final class HiddenClassException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    HiddenClassException(Class<?> type) {
        super("it holds a lambda or another hidden class (" + type.getName() + "), which cannot cross groups: its"
                + " class exists only in the JVM that made it; send a value instead (a record, an enum constant),"
                + " or make the field transient");
    }
}
