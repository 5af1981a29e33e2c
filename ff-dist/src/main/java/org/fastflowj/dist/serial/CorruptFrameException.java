package org.fastflowj.dist.serial;

/**
 * The bytes handed to {@link ItemCodec#read} are not one well-formed item: truncated, garbage, or written with a
 * different {@link org.fastflowj.dist.SerializationConfig}. The connection they came from cannot be trusted further.
 *
 * <p>Threading: an ordinary immutable exception.
 */
public final class CorruptFrameException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptFrameException(String message) {
        super(message);
    }

    public CorruptFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
