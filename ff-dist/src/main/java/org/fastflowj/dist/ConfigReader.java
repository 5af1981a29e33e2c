package org.fastflowj.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.fastflowj.core.checkpoint.CheckpointMode;

/**
 * Turns a {@link LocatedJson} document into a {@link DffConfig}, checking every key: what is allowed
 * where, types, ranges, uniqueness and the rules that tie keys together.
 */
final class ConfigReader {
    static final List<String> TOP_LEVEL_KEYS = List.of(
            "protocol",
            "groups",
            "batchSize",
            "messageOTF",
            "internalMessageOTF",
            "maxBufferedBytesPerLink",
            "flushDelayMicros",
            "connectTimeoutMs",
            "heartbeatIntervalMs",
            "heartbeatTimeoutMs",
            "maxFrameBytes",
            "maxObjectsPerItem",
            "maxCachedBytesPerLink",
            "stallTimeoutMs",
            "secretFile",
            "secretEnv",
            "insecure",
            "tls",
            "checkpoints");
    static final List<String> GROUP_KEYS = List.of(
            "name",
            "endpoint",
            "host",
            "batchSize",
            "messageOTF",
            "internalMessageOTF",
            "maxBufferedBytesPerLink",
            "flushDelayMicros",
            "threadMapping",
            "preCmd",
            "jvmArgs",
            "tlsName",
            "blocks");
    static final List<String> TLS_KEYS = List.of("certFile", "keyFile", "trustFile", "enabled");
    static final List<String> CHECKPOINTS_KEYS =
            List.of("directory", "intervalMs", "mode", "retained", "fullEvery", "restart");
    static final List<String> RESTART_KEYS =
            List.of("attempts", "delayMs", "failureRateWindowMs", SpareHostsReader.KEY);
    /** The longest time in milliseconds that a {@link Duration} still holds in nanoseconds (292 years). */
    static final long MAX_MILLIS = Long.MAX_VALUE / 1_000_000;

    private static final CheckpointsConfig.Restart DEFAULT_RESTART =
            new CheckpointsConfig.Restart(3, Duration.ofSeconds(1), Optional.empty());

    private static final String PEM_PATH = "the path of a PEM file";

    private final ConfigFields fields;
    private final LocatedJson json;
    private final Path folder;
    private final SpareHostsReader spares;

    private ConfigReader(LocatedJson json, Path folder) {
        this.fields = new ConfigFields(json);
        this.spares = new SpareHostsReader(fields);
        this.json = json;
        this.folder = folder;
    }

    /** Reads {@code json}; relative paths in it are resolved against {@code folder}. */
    static DffConfig read(LocatedJson json, Path folder) {
        return new ConfigReader(json, folder).read();
    }

    private DffConfig read() {
        ObjectNode root = fields.object(json.root, "", "a JSON object with a \"groups\" array");
        fields.allowOnly(root, "", TOP_LEVEL_KEYS);
        String protocol = fields.attempt(() -> protocol(root), "TCP");
        Tuning defaults = GroupsReader.tuning(fields, root, "", Tuning.DEFAULTS);
        long connectTimeoutMs = fields.attempt(() -> fields.longAtLeast(root, "", "connectTimeoutMs", 0, 30_000), 0L);
        Long heartbeatIntervalMs =
                fields.attempt(() -> fields.longAtLeast(root, "", "heartbeatIntervalMs", 1, 1_000), null);
        Long heartbeatTimeoutMs =
                fields.attempt(() -> fields.longAtLeast(root, "", "heartbeatTimeoutMs", 1, 5_000), null);
        if (heartbeatTimeoutMs != null && heartbeatIntervalMs != null && heartbeatTimeoutMs <= heartbeatIntervalMs) {
            // Blame the key that is written; if both are, the timeout is the one to raise.
            String culprit = root.has("heartbeatTimeoutMs") ? "heartbeatTimeoutMs" : "heartbeatIntervalMs";
            fields.note(json.errorAtValue(
                    culprit,
                    "heartbeatTimeoutMs (" + heartbeatTimeoutMs + ") must be more than heartbeatIntervalMs ("
                            + heartbeatIntervalMs + "); expected a timeout several intervals long"));
        }
        int maxFrameBytes =
                fields.attempt(() -> fields.intAtLeast(root, "", "maxFrameBytes", 1024, 64 * 1024 * 1024), 0);
        int maxObjectsPerItem = fields.attempt(
                () -> fields.intAtLeast(root, "", "maxObjectsPerItem", 1, DffConfig.DEFAULT_MAX_OBJECTS_PER_ITEM), 0);
        long maxCachedBytesPerLink = fields.attempt(
                () -> fields.longAtLeast(
                        root, "", "maxCachedBytesPerLink", 0, DffConfig.DEFAULT_MAX_CACHED_BYTES_PER_LINK),
                0L);
        long stallTimeoutMs = fields.attempt(
                () -> fields.longAtLeast(root, "", "stallTimeoutMs", 0, DffConfig.DEFAULT_STALL_TIMEOUT_MS), 0L);
        SecretSource secret = fields.attempt(() -> secret(root), SecretSource.NONE);
        boolean insecure = fields.attempt(() -> fields.bool(root, "", "insecure", false), false);
        Optional<TlsConfig> tls = fields.attempt(() -> tls(root), Optional.empty());
        Optional<CheckpointsConfig> checkpoints = fields.attempt(() -> checkpoints(root), Optional.empty());
        List<GroupConfig> groups = fields.attempt(() -> new GroupsReader(fields).groups(root, defaults), List.of());
        spares.checkAgainst(groups);
        fields.throwIfAny();
        return new DffConfig(
                json.source,
                protocol,
                defaults,
                connectTimeoutMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                maxFrameBytes,
                new DffConfig.PeerLimits(maxObjectsPerItem, stallTimeoutMs, maxCachedBytesPerLink),
                secret,
                insecure,
                tls,
                checkpoints,
                groups);
    }

    private String protocol(ObjectNode root) {
        String protocol = fields.string(root, "", "protocol").orElse("TCP");
        if (!protocol.equals("TCP")) {
            throw json.errorAtValue("protocol", "unsupported protocol \"" + protocol + "\"; expected \"TCP\"");
        }
        return protocol;
    }

    private SecretSource secret(ObjectNode root) {
        Optional<String> file = fields.nonBlankString(root, "", "secretFile");
        Optional<String> env = fields.nonBlankString(root, "", "secretEnv");
        if (file.isPresent() && env.isPresent()) {
            throw json.errorAtKey(
                    "secretEnv", "both secretFile and secretEnv are given; expected at most one source of the secret");
        }
        if (file.isPresent()) {
            return SecretSource.file(folder.resolve(file.get()), origin("secretFile"));
        }
        return env.map(variable -> SecretSource.env(variable, origin("secretEnv")))
                .orElse(SecretSource.NONE);
    }

    private SecretSource.Origin origin(String path) {
        return new SecretSource.Origin(json.source, json.valueAt(path));
    }

    private Optional<TlsConfig> tls(ObjectNode root) {
        JsonNode node = root.get("tls");
        if (node == null) {
            return Optional.empty();
        }
        ObjectNode tls = fields.object(node, "tls", "an object with certFile, keyFile and trustFile");
        fields.allowOnly(tls, "tls", TLS_KEYS);
        Path cert = fields.attempt(() -> pemFile(tls, "certFile"), null);
        Path key = fields.attempt(() -> pemFile(tls, "keyFile"), null);
        Path trust = fields.attempt(() -> pemFile(tls, "trustFile"), null);
        boolean enabled = fields.attempt(() -> fields.bool(tls, "tls", "enabled", true), true);
        if (cert == null || key == null || trust == null) {
            return Optional.empty(); // the problems are noted: the config is refused
        }
        return Optional.of(new TlsConfig(cert, key, trust, enabled));
    }

    private Optional<CheckpointsConfig> checkpoints(ObjectNode root) {
        JsonNode node = root.get("checkpoints");
        if (node == null) {
            return Optional.empty();
        }
        String at = "checkpoints";
        ObjectNode checkpoints = fields.object(node, at, "an object with a \"directory\"");
        fields.allowOnly(checkpoints, at, CHECKPOINTS_KEYS);
        Path directory = fields.attempt(
                () -> {
                    fields.required(checkpoints, at, "directory", "the path of the folder the checkpoints go to");
                    return folder.resolve(
                            fields.nonBlankString(checkpoints, at, "directory").orElseThrow());
                },
                null);
        long intervalMs =
                fields.attempt(() -> fields.longBetween(checkpoints, at, "intervalMs", 1, MAX_MILLIS, 1_000), 1_000L);
        CheckpointMode mode = fields.attempt(() -> mode(checkpoints), CheckpointMode.EXACTLY_ONCE);
        int retained = fields.attempt(() -> fields.intAtLeast(checkpoints, at, "retained", 2, 3), 3);
        int fullEvery = fields.attempt(() -> fields.intAtLeast(checkpoints, at, "fullEvery", 1, 1), 1);
        CheckpointsConfig.Restart restart = fields.attempt(() -> restart(checkpoints), DEFAULT_RESTART);
        if (directory == null) {
            return Optional.empty(); // the problem is noted: the config is refused
        }
        return Optional.of(
                new CheckpointsConfig(directory, Duration.ofMillis(intervalMs), mode, retained, fullEvery, restart));
    }

    private CheckpointMode mode(ObjectNode checkpoints) {
        String mode = fields.string(checkpoints, "checkpoints", "mode").orElse("exactly-once");
        return switch (mode) {
            case "exactly-once" -> CheckpointMode.EXACTLY_ONCE;
            case "at-least-once" -> CheckpointMode.AT_LEAST_ONCE;
            default -> throw json.errorAtValue(
                    "checkpoints.mode",
                    "unknown mode \"" + mode + "\"; expected \"exactly-once\" or \"at-least-once\"");
        };
    }

    private CheckpointsConfig.Restart restart(ObjectNode checkpoints) {
        JsonNode node = checkpoints.get("restart");
        if (node == null) {
            return DEFAULT_RESTART;
        }
        String at = "checkpoints.restart";
        ObjectNode restart =
                fields.object(node, at, "an object with attempts, delayMs, failureRateWindowMs and spareHosts");
        fields.allowOnly(restart, at, RESTART_KEYS);
        int attempts = fields.attempt(() -> fields.intAtLeast(restart, at, "attempts", 0, 3), 3);
        long delayMs = fields.attempt(() -> fields.longBetween(restart, at, "delayMs", 0, MAX_MILLIS, 1_000), 1_000L);
        Optional<Duration> window = fields.attempt(
                () -> restart.has("failureRateWindowMs")
                        ? Optional.of(Duration.ofMillis(
                                fields.longBetween(restart, at, "failureRateWindowMs", 1, MAX_MILLIS, 1)))
                        : Optional.empty(),
                Optional.empty());
        List<CheckpointsConfig.SpareHost> spareHosts = fields.attempt(() -> spares.read(restart, at), List.of());
        return new CheckpointsConfig.Restart(attempts, Duration.ofMillis(delayMs), window, spareHosts);
    }

    private Path pemFile(ObjectNode tls, String key) {
        fields.required(tls, "tls", key, PEM_PATH);
        return folder.resolve(fields.nonBlankString(tls, "tls", key).orElseThrow());
    }
}
