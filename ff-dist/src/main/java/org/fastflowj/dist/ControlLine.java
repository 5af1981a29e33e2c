package org.fastflowj.dist;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The channel from a group to the launcher that started it: status lines ({@code DFF_CONNECTED: G},
 * {@code DFF_LOST: W2}, statistics, the failure's origin) carried on the group's stderr, each sealed with
 * a key the launcher hands that one group alone ({@value #ENV}). The launcher acts on a line only when
 * its seal is right and its number is higher than every number seen from that group before; every other
 * line, however it begins, is the program's own and reaches the output unchanged. So neither a
 * program's data nor a replay of an earlier line can stand for the launcher's news.
 *
 * <pre>
 *   DFF_CONTROL: &lt;number&gt; &lt;seal&gt; &lt;message&gt;
 * </pre>
 *
 * The seal is HMAC-SHA256 of {@code "<number> <message>"} under the group's key, cut to 128 bits,
 * base64url. A group started by hand has no key: it prints its messages plain, for the person reading
 * them, since no launcher reads them.
 *
 * <p>Threading: {@link #emit} may be called from any thread (one lock orders numbers and lines);
 * a {@link Verifier} belongs to one reader.
 */
public final class ControlLine {
    /** The environment variable that carries a group's key: 32 bytes, base64url. */
    public static final String ENV = "DFF_ControlKey";
    /** The start of every sealed line. */
    public static final String PREFIX = "DFF_CONTROL:";

    private static final String ALGORITHM = "HmacSHA256";
    private static final int KEY_BYTES = 32;
    private static final int SEAL_BYTES = 16;

    private ControlLine() {}

    /** A fresh key for one group: 32 bytes of {@link SecureRandom}, base64url without padding. */
    public static String newKey() {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key);
    }

    /**
     * Prints {@code message} (one line) on {@code stream} for the launcher: sealed with this process's key
     * when it has one, plain otherwise.
     */
    public static void emit(PrintStream stream, String message) {
        OfThisProcess.SEALER.emit(stream, message);
    }

    /** Whether this process has a launcher's key, so that its messages reach a launcher. */
    public static boolean toLauncher() {
        return OfThisProcess.SEALER.mac != null;
    }

    private static final class OfThisProcess {
        static final Sealer SEALER = new Sealer(System.getenv(ENV));
    }

    /** Seals and prints one process's messages (the launcher's tests seal with it as a group would). */
    public static final class Sealer {
        private final Mac mac;
        private long number;

        /** {@code key} as {@link #newKey} makes it, or null or blank for none (plain lines). */
        public Sealer(String key) {
            this.mac = key == null || key.isBlank() ? null : mac(key);
        }

        synchronized void emit(PrintStream stream, String message) {
            // Under the lock: numbers reach the stream in the order they are given.
            stream.println(mac == null ? message : seal(message));
            stream.flush();
        }

        /** {@code message} as one sealed line, numbered after every line this sealer made before. */
        public synchronized String seal(String message) {
            requireOneLine(message);
            long n = ++number;
            return PREFIX + " " + n + " " + sealOf(mac, n, message) + " " + message;
        }
    }

    /** Reads one group's sealed lines: the launcher holds one per group, with that group's key. */
    public static final class Verifier {
        private final Mac mac;
        private long lastNumber;

        public Verifier(String key) {
            this.mac = mac(key);
        }

        /**
         * The message of {@code line} when it is a sealed line of this key with a number above every
         * number accepted before; null for any other line (the program's).
         */
        public synchronized String open(String line) {
            if (!line.startsWith(PREFIX)) {
                return null;
            }
            String[] parts = line.substring(PREFIX.length()).stripLeading().split(" ", 3);
            if (parts.length < 3) {
                return null;
            }
            long n;
            try {
                n = Long.parseLong(parts[0]);
            } catch (NumberFormatException e) {
                return null;
            }
            byte[] given = decode(parts[1]);
            byte[] expected = Base64.getUrlDecoder().decode(sealOf(mac, n, parts[2]));
            if (given == null || !MessageDigest.isEqual(given, expected) || n <= lastNumber) {
                return null;
            }
            lastNumber = n;
            return parts[2];
        }
    }

    private static String sealOf(Mac mac, long number, String message) {
        byte[] full = mac.doFinal((number + " " + message).getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(full, SEAL_BYTES));
    }

    private static byte[] decode(String seal) {
        try {
            return Base64.getUrlDecoder().decode(seal);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void requireOneLine(String message) {
        if (message.indexOf('\n') >= 0 || message.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a control message is one line: " + message);
        }
    }

    private static Mac mac(String key) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ENV + " is not base64url: " + e.getMessage(), e);
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(ENV + " must hold " + KEY_BYTES + " bytes, not " + bytes.length);
        }
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(bytes, ALGORITHM));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has " + ALGORITHM, e);
        }
    }
}
