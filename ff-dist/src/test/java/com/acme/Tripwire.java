package com.acme;

import java.util.concurrent.atomic.AtomicBoolean;

/** Records whether its static initialiser ran: a refused class must never get that far. */
public final class Tripwire {

    static {
        Tripwire.Flag.SET.set(true);
    }

    /** Lives in a nested class so that reading the flag does not initialise {@code Tripwire} itself. */
    public static final class Flag {
        public static final AtomicBoolean SET = new AtomicBoolean();

        private Flag() {}
    }
}
