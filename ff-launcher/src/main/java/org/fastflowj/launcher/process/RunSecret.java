package org.fastflowj.launcher.process;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The shared secret of one run: 32 random bytes, fresh each time the launcher starts an application,
 * handed to every group in the environment variable {@value #ENV} (ff-dist authenticates the groups'
 * connections with it when the config names no secret of its own).
 *
 * <p>It never goes on a command line, where {@code ps} would show it to every user of the machine: a
 * local group or an srun client gets it in its environment, a remote group as the first line of the ssh
 * client's input ({@link RemoteScript} reads it into its environment). The launcher never prints it.
 *
 * <p>Threading: immutable.
 */
public final class RunSecret {
    /** The variable that carries the secret to a group. */
    public static final String ENV = "DFF_Secret";

    private static final int BYTES = 32;

    private RunSecret() {}

    /** A new secret: 32 bytes of {@link SecureRandom}, base64url without padding (43 characters). */
    public static String generate() {
        byte[] bytes = new byte[BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
