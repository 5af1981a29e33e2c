package org.fastflowj.bench.net;

/**
 * One measured transfer: {@code messages} messages of {@code payloadBytes} bytes each, delivered in
 * {@code nanos}, from the first message the sender produced to the last one the receiver read.
 *
 * <p>Threading: immutable.
 */
public record Transfer(long messages, int payloadBytes, long nanos) {

    public double messagesPerSecond() {
        return messages * 1e9 / nanos;
    }

    /** Payload bandwidth in MB/s (10^6 bytes), framing not counted. */
    public double payloadMegabytesPerSecond() {
        return messages * (double) payloadBytes * 1e3 / nanos;
    }
}
