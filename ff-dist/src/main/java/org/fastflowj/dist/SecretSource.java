package org.fastflowj.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * Where the shared secret comes from: a file, an environment variable, or nowhere. The secret is
 * read when asked for, not when the config is loaded, so it is not kept in memory longer than
 * needed and a config can be checked on a machine that lacks it.
 *
 * <p>Threading: immutable, safe to share.
 */
final class SecretSource {
    static final SecretSource NONE = new SecretSource(null, null, null);

    private final Path file;
    private final String envVariable;
    /** The key that named the secret, so that a missing secret is blamed on it. */
    private final Origin origin;

    private SecretSource(Path file, String envVariable, Origin origin) {
        this.file = file;
        this.envVariable = envVariable;
        this.origin = origin;
    }

    /** Where a key sits: the config's source name and the key's value position. */
    record Origin(String source, LocatedJson.Position position) {}

    static SecretSource file(Path file, Origin origin) {
        return new SecretSource(file, null, origin);
    }

    static SecretSource env(String variable, Origin origin) {
        return new SecretSource(null, variable, origin);
    }

    Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    Optional<String> envVariable() {
        return Optional.ofNullable(envVariable);
    }

    Optional<byte[]> read() {
        if (file != null) {
            return Optional.of(readFile());
        }
        if (envVariable != null) {
            return Optional.of(readEnv());
        }
        return Optional.empty();
    }

    private byte[] readFile() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw error("secretFile", "cannot read the secret file " + file + ": " + e, e);
        }
        // Editors add a final newline; it is not part of the secret. Only one is dropped, so a
        // secret that really ends in whitespace survives.
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] == '\n') {
            end--;
            if (end > 0 && bytes[end - 1] == '\r') {
                end--;
            }
        }
        if (end == 0) {
            throw error("secretFile", "the secret file " + file + " is empty; expected the shared secret", null);
        }
        return Arrays.copyOf(bytes, end);
    }

    private byte[] readEnv() {
        String value = System.getenv(envVariable);
        if (value == null) {
            throw error(
                    "secretEnv",
                    "the environment variable " + envVariable + " is not set; expected the shared secret",
                    null);
        }
        if (value.isEmpty()) {
            throw error(
                    "secretEnv",
                    "the environment variable " + envVariable + " is empty; expected the shared secret",
                    null);
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private ConfigException error(String key, String problem, Throwable cause) {
        LocatedJson.Position at = origin.position();
        return new ConfigException(origin.source(), at.line(), at.column(), key + ": " + problem, cause);
    }
}
