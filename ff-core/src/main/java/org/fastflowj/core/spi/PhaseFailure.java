package org.fastflowj.core.spi;

/**
 * A failure that happened in another life-cycle method than the one the executor is running, e.g. a
 * combiner's second node failing in {@code eosNotify} while the first node's {@code svc} returned EOS.
 * The executor reports {@link #phase()} and the cause, not this wrapper.
 */
public final class PhaseFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String phase;

    public PhaseFailure(String phase, Throwable cause) {
        super(phase + ": " + cause, cause);
        this.phase = phase;
    }

    public String phase() {
        return phase;
    }
}
