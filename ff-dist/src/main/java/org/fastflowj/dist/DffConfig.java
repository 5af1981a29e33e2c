package org.fastflowj.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The deployment of a distributed program: which groups exist, where each listens, and how links
 * between them behave. Read from the JSON format of FastFlow's distributed groups (2022 paper),
 * with the same key spelling; see {@code docs/config.md} for every key.
 *
 * <pre>{@code
 * DffConfig config = DffConfig.load(Path.of("app.json"));
 * config.requireGroups(List.of("G1", "G2", "G3", "G4"));
 * InetSocketAddress listenOn = config.group("G2").orElseThrow().address();
 * }</pre>
 *
 * <p>All checks happen while loading, so a config that loads is complete and consistent; only the
 * secret is read later ({@link #secret()}). Every problem is a {@link ConfigException} whose message
 * starts with {@code file:line:column:} and the JSON path of the culprit.
 *
 * <p>Threading: immutable, safe to share.
 */
public final class DffConfig {
    /** {@code maxObjectsPerItem} when the config gives none: far more than a stream item needs. */
    public static final int DEFAULT_MAX_OBJECTS_PER_ITEM = 1_000_000;
    /** {@code stallTimeoutMs} when the config gives none: a minute, twelve default heartbeat time-outs. */
    public static final long DEFAULT_STALL_TIMEOUT_MS = 60_000;

    /**
     * {@code maxCachedBytesPerLink} when the config gives none: 64 MiB of macro data-flow parameter values
     * per link, the blocks of two 2048 x 2048 matrices of doubles.
     */
    public static final long DEFAULT_MAX_CACHED_BYTES_PER_LINK = 64L << 20;

    /**
     * What a group allows its peers besides the frame bound ({@link #maxObjectsPerItem}, {@link
     * #stallTimeoutMs}, {@link #maxCachedBytesPerLink}).
     */
    record PeerLimits(int maxObjectsPerItem, long stallTimeoutMs, long maxCachedBytesPerLink) {}

    private final String source;
    private final String protocol;
    private final Tuning defaults;
    private final long connectTimeoutMs;
    private final long heartbeatIntervalMs;
    private final long heartbeatTimeoutMs;
    private final int maxFrameBytes;
    private final PeerLimits peerLimits;
    private final SecretSource secret;
    private final boolean insecure;
    private final Optional<TlsConfig> tls;
    private final Optional<CheckpointsConfig> checkpoints;
    private final List<GroupConfig> groups;

    DffConfig(
            String source,
            String protocol,
            Tuning defaults,
            long connectTimeoutMs,
            long heartbeatIntervalMs,
            long heartbeatTimeoutMs,
            int maxFrameBytes,
            PeerLimits peerLimits,
            SecretSource secret,
            boolean insecure,
            Optional<TlsConfig> tls,
            Optional<CheckpointsConfig> checkpoints,
            List<GroupConfig> groups) {
        this.source = source;
        this.protocol = protocol;
        this.defaults = defaults;
        this.connectTimeoutMs = connectTimeoutMs;
        this.heartbeatIntervalMs = heartbeatIntervalMs;
        this.heartbeatTimeoutMs = heartbeatTimeoutMs;
        this.maxFrameBytes = maxFrameBytes;
        this.peerLimits = peerLimits;
        this.secret = secret;
        this.insecure = insecure;
        this.tls = tls;
        this.checkpoints = checkpoints;
        this.groups = List.copyOf(groups);
    }

    /**
     * Reads and checks the config file at {@code file}; messages name it by its file name. Relative
     * paths inside ({@code secretFile}, {@code tls}, the {@code checkpoints} directory) are resolved against the file's folder.
     *
     * @throws ConfigException if the file cannot be read or is not a valid config
     */
    public static DffConfig load(Path file) {
        String name = file.getFileName() == null
                ? file.toString()
                : file.getFileName().toString();
        if (Files.isDirectory(file)) {
            throw new ConfigException(
                    file.toString(), 0, 0, "is a directory; expected a config file (JSON, like app.json)");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException(name, 0, 0, "cannot read the config: " + describe(e), e);
        }
        String text = ConfigText.decode(bytes, name);
        Path folder = file.toAbsolutePath().getParent();
        return ConfigReader.read(LocatedJson.parse(text, name), folder);
    }

    /**
     * Checks the config text {@code json}; messages name it {@code sourceName}. Relative paths inside
     * are resolved against the working directory.
     *
     * @throws ConfigException if the text is not a valid config
     */
    public static DffConfig parse(String json, String sourceName) {
        return ConfigReader.read(
                LocatedJson.parse(json, sourceName), Path.of("").toAbsolutePath());
    }

    /**
     * Checks that the program and the config agree on the groups: each group the program creates is
     * in the config, and each group in the config is created by the program. A leftover group would
     * be a process that never gets work, which is almost always a stale config.
     *
     * @throws ConfigException naming the first group that is on one side only
     */
    public void requireGroups(Collection<String> programGroups) {
        for (String used : programGroups) {
            if (group(used).isEmpty()) {
                String defined = groups.stream().map(GroupConfig::name).collect(Collectors.joining(", "));
                throw new ConfigException(
                        source,
                        0,
                        0,
                        "group '" + used + "' is used by the program but not defined in the config (defined: " + defined
                                + ")");
            }
        }
        for (GroupConfig group : groups) {
            if (!programGroups.contains(group.name())) {
                throw new ConfigException(
                        source,
                        group.line(),
                        group.column(),
                        "group '" + group.name() + "' is defined in the config but not used by the program");
            }
        }
    }

    /**
     * Whether the config rather than the program's code makes the groups: every group lists its blocks
     * ({@link GroupConfig#blocks()}), which the run resolves against the program's tree.
     */
    public boolean listsBlocks() {
        return groups.stream().anyMatch(g -> g.blocks().isPresent());
    }

    /** Where this config came from: the file name, or the name given to {@link #parse}. */
    public String source() {
        return source;
    }

    /** The transport; only {@code "TCP"} for now. */
    public String protocol() {
        return protocol;
    }

    /** The groups in file order. */
    public List<GroupConfig> groups() {
        return groups;
    }

    /** The group called {@code name}, if the config defines it. */
    public Optional<GroupConfig> group(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /**
     * Top-level {@code batchSize}: messages per network frame for groups that do not override it, or {@link
     * GroupConfig#AUTO_BATCH_SIZE} for {@code "auto"}.
     */
    public int batchSize() {
        return defaults.batchSize();
    }

    /** Top-level {@code messageOTF}: un-acknowledged batches in flight per connection. */
    public int messageOTF() {
        return defaults.messageOTF();
    }

    /** Top-level {@code internalMessageOTF}: the same, between groups of one all-to-all. */
    public int internalMessageOTF() {
        return defaults.internalMessageOTF();
    }

    /** Top-level {@code flushDelayMicros}: the longest a partly filled batch waits. */
    public long flushDelayMicros() {
        return defaults.flushDelayMicros();
    }

    /** How long a peer that is not up yet is retried before the run fails. */
    public long connectTimeoutMs() {
        return connectTimeoutMs;
    }

    /** How often an idle link sends a heartbeat. */
    public long heartbeatIntervalMs() {
        return heartbeatIntervalMs;
    }

    /** Silence after which a link is declared dead; always more than {@link #heartbeatIntervalMs()}. */
    public long heartbeatTimeoutMs() {
        return heartbeatTimeoutMs;
    }

    /** The largest frame a group accepts; a bigger one fails the link rather than exhausting memory. */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * The most objects one item read from a peer may build (each object, element, map key or value, null or
     * not, counts one): a few bytes on the wire can stand for dozens on the heap, so an item past it fails
     * the run naming its sender.
     */
    public int maxObjectsPerItem() {
        return peerLimits.maxObjectsPerItem();
    }

    /**
     * The serialized bytes of macro data-flow parameter values (a task's blocks) that a group keeps per link
     * from the group that sends it tasks, so that a value it holds in the same version crosses again as a
     * reference, not in full; each value counts 64 bytes more for its entry. The sender keeps the account and
     * drops the least recently used past it, telling the receiver; a receiver told to keep more fails the
     * run naming its peer. 0: nothing kept, every value sent in full.
     */
    public long maxCachedBytesPerLink() {
        return peerLimits.maxCachedBytesPerLink();
    }

    /**
     * How long a sender may have batches unacknowledged while its peer neither acknowledges any nor takes
     * bytes off the socket before the run fails naming that peer; 0: never.
     */
    public long stallTimeoutMs() {
        return peerLimits.stallTimeoutMs();
    }

    /** {@code secretFile}, resolved against the config file's folder, if given. */
    public Optional<Path> secretFile() {
        return secret.file();
    }

    /** {@code secretEnv}: the environment variable holding the secret, if given. */
    public Optional<String> secretEnv() {
        return secret.envVariable();
    }

    /**
     * The shared secret, read now from {@code secretFile} (less one trailing newline) or from the
     * {@code secretEnv} variable (UTF-8); empty when the config names neither.
     *
     * @throws ConfigException if the file or variable is missing, unreadable or empty
     */
    public Optional<byte[]> secret() {
        return secret.read();
    }

    /**
     * {@code insecure}: a group started without any secret (none in the config, no {@code DFF_Secret}
     * from the launcher) and without TLS may listen on and connect to non-loopback addresses, with a
     * warning. False by default: such a group fails at start.
     */
    public boolean insecure() {
        return insecure;
    }

    /** The {@code tls} settings, if the config has them (they may say {@code enabled: false}). */
    public Optional<TlsConfig> tls() {
        return tls;
    }

    /**
     * The {@code checkpoints} settings, if the config has them: then every group takes checkpoints into
     * their directory, and the launcher restarts every group from the newest complete one after a failure,
     * as their restart strategy allows.
     */
    public Optional<CheckpointsConfig> checkpoints() {
        return checkpoints;
    }

    @Override
    public String toString() {
        return "DffConfig[" + source + ", groups="
                + groups.stream().map(g -> g.name() + "@" + g.endpoint()).collect(Collectors.joining(", ")) + "]";
    }

    private static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
    }
}
