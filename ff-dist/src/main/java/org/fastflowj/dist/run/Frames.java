package org.fastflowj.dist.run;

/**
 * The application frames between two groups (the transport owns types below 0x10) and the messages
 * inside a batch.
 *
 * <pre>
 *   sender group G ──── BATCH ────────────────▶ receiver group H      (one connection, opened by G)
 *                  ◀─── ACK, TAKEN, GONE, ABORT ─────
 *
 *   BATCH payload:  message*          message: kind (1 byte), edge id (int), then for DATA a count (int)
 *                                     and that many items, in order
 *   ACK payload:    batches (int)     that many batches were taken: the sender may send that many more
 *   TAKEN payload:  edge id (int), n (int)   the on-demand edge's consumer took n more of its items: the
 *                                     sender may send that many more on that edge (per-worker on-demand)
 *   GONE payload:   edge id (int)     the edge's consumer ended: its producer stops (early termination)
 *   ABORT payload:  group (UTF), why (UTF)   that group failed: fail this run too (either direction)
 *   ENDED payload:  group (UTF)       that group's part of the run ended (either direction; each group
 *                                     passes it on once, see EndAgreement)
 * </pre>
 *
 * Edge ids are positions in the whole program's graph, the same in every process (the handshake's graph
 * fingerprint checks that).
 */
final class Frames {
    static final byte BATCH = 0x10;
    static final byte ACK = 0x11;
    static final byte GONE = 0x12;
    static final byte ABORT = 0x13;
    static final byte TAKEN = 0x14;
    static final byte ENDED = 0x1F;

    /**
     * A run of items for the edge's consumer: the sender writes the kind and edge once for consecutive
     * items of one edge (per item they took as many bytes as an 8-byte payload, and a call each).
     */
    static final byte DATA = 0;
    /** The edge's producer sent EOS on it (forward edges). */
    static final byte EOS = 1;
    /** The edge's producer ended (feedback edges, which carry no EOS). */
    static final byte DONE = 2;

    private Frames() {}
}
