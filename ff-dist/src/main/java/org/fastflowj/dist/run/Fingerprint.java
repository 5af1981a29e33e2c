package org.fastflowj.dist.run;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.RecoverableAllToAll;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;

/**
 * A 64-bit digest of what two groups must agree on: the whole program's graph (every vertex's name,
 * node class and group, every edge, the edges whose items carry a recoverable all-to-all's tags), the
 * groups of the config, their endpoints and credits, the checkpoint settings, and the serialization set-up. Processes started from different programs or configs refuse each other in the handshake.
 */
final class Fingerprint {
    private Fingerprint() {}

    static long of(Graph whole, DffConfig config, long serializationFingerprint) {
        MessageDigest sha = sha256();
        for (Vertex v : whole.vertices()) {
            text(sha, v.name());
            text(sha, v.node().getClass().getName());
            text(sha, String.valueOf(v.group()));
            text(sha, Integer.toString(v.id()));
        }
        for (Edge e : whole.edges()) {
            text(sha, e.from().index() + " " + e.kind() + " " + e.to().index() + " " + e.slots());
        }
        for (RecoverableAllToAll a2a : whole.recoverableAllToAlls()) {
            // Its R-Workers' outputs carry tags on the wire: both ends must know which edges do.
            StringBuilder returns = new StringBuilder("recoverable " + a2a.name());
            for (Edge e : a2a.returns()) {
                returns.append(' ').append(e.from().index()).append('>').append(e.to().index());
            }
            text(sha, returns.toString());
        }
        for (GroupConfig g : config.groups()) {
            // A receiver enforces the window its peer's sender keeps (batches, and bytes up to the receiver's
            // maxBufferedBytesPerLink): both must read them alike.
            text(
                    sha,
                    g.name() + "@" + g.endpoint() + " " + g.messageOTF() + "/" + g.internalMessageOTF() + " "
                            + g.maxBufferedBytesPerLink());
        }
        // The sender keeps the account of what its receiver caches against the bound the receiver enforces.
        text(sha, "maxCachedBytesPerLink " + config.maxCachedBytesPerLink());
        config.checkpoints().ifPresent(c -> {
            // Groups resuming from different folders, or taking checkpoints at different rates or guarantees,
            // would restore states of different cuts of the stream.
            text(
                    sha,
                    "checkpoints " + c.directory() + " " + c.interval().toMillis() + " " + c.mode() + " " + c.retained()
                            + " " + c.fullEvery() + " " + c.restartStrategy() + " spares "
                            + c.restart().spareHosts());
        });
        text(sha, Long.toHexString(serializationFingerprint));
        return ByteBuffer.wrap(sha.digest()).getLong();
    }

    private static void text(MessageDigest sha, String s) {
        sha.update(s.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
