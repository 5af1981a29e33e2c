package org.fastflowj.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

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
            "secretFile",
            "secretEnv",
            "insecure",
            "tls");
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
            "tlsName");
    static final List<String> TLS_KEYS = List.of("certFile", "keyFile", "trustFile", "enabled");

    private static final Pattern CPU_LIST = Pattern.compile("\\s*\\d{1,9}\\s*(,\\s*\\d{1,9}\\s*)*");
    private static final String PEM_PATH = "the path of a PEM file";

    private final ConfigFields fields;
    private final LocatedJson json;
    private final Path folder;

    private ConfigReader(LocatedJson json, Path folder) {
        this.fields = new ConfigFields(json);
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
        Tuning defaults = tuning(root, "", Tuning.FASTFLOW_DEFAULTS);
        long connectTimeoutMs = fields.attempt(() -> fields.longAtLeast(root, "", "connectTimeoutMs", 0, 30_000), 0L);
        Long heartbeatIntervalMs =
                fields.attempt(() -> fields.longAtLeast(root, "", "heartbeatIntervalMs", 1, 1_000), null);
        Long heartbeatTimeoutMs =
                fields.attempt(() -> fields.longAtLeast(root, "", "heartbeatTimeoutMs", 1, 5_000), null);
        if (heartbeatTimeoutMs != null && heartbeatIntervalMs != null && heartbeatTimeoutMs <= heartbeatIntervalMs) {
            // Blame the key that is written; if both are, the timeout is the one to raise.
            String culprit = root.has("heartbeatTimeoutMs") ? "heartbeatTimeoutMs" : "heartbeatIntervalMs";
            fields.attempt(() -> {
                throw json.errorAtValue(
                        culprit,
                        "heartbeatTimeoutMs (" + heartbeatTimeoutMs + ") must be more than heartbeatIntervalMs ("
                                + heartbeatIntervalMs + "); expected a timeout several intervals long");
            });
        }
        int maxFrameBytes =
                fields.attempt(() -> fields.intAtLeast(root, "", "maxFrameBytes", 1024, 64 * 1024 * 1024), 0);
        SecretSource secret = fields.attempt(() -> secret(root), SecretSource.NONE);
        boolean insecure = fields.attempt(() -> fields.bool(root, "", "insecure", false), false);
        Optional<TlsConfig> tls = fields.attempt(() -> tls(root), Optional.empty());
        List<GroupConfig> groups = fields.attempt(() -> groups(root, defaults), List.of());
        fields.throwIfAny();
        return new DffConfig(
                json.source,
                protocol,
                defaults,
                connectTimeoutMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                maxFrameBytes,
                secret,
                insecure,
                tls,
                groups);
    }

    private String protocol(ObjectNode root) {
        String protocol = fields.string(root, "", "protocol").orElse("TCP");
        if (!protocol.equals("TCP")) {
            throw json.errorAtValue("protocol", "unsupported protocol \"" + protocol + "\"; expected \"TCP\"");
        }
        return protocol;
    }

    /** The tuning keys of {@code object}, each falling back to {@code fallback}'s value. */
    private Tuning tuning(ObjectNode object, String path, Tuning fallback) {
        return new Tuning(
                fields.attempt(
                        () -> fields.intAtLeast(object, path, "batchSize", 1, fallback.batchSize()),
                        fallback.batchSize()),
                fields.attempt(
                        () -> fields.intAtLeast(object, path, "messageOTF", 1, fallback.messageOTF()),
                        fallback.messageOTF()),
                fields.attempt(
                        () -> fields.intAtLeast(object, path, "internalMessageOTF", 1, fallback.internalMessageOTF()),
                        fallback.internalMessageOTF()),
                fields.attempt(
                        () -> fields.longAtLeast(object, path, "flushDelayMicros", 0, fallback.flushDelayMicros()),
                        fallback.flushDelayMicros()),
                fields.attempt(
                        () -> fields.longAtLeast(
                                object,
                                path,
                                "maxBufferedBytesPerLink",
                                Tuning.MIN_BUFFERED_BYTES_PER_LINK,
                                fallback.maxBufferedBytesPerLink()),
                        fallback.maxBufferedBytesPerLink()));
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

    private Path pemFile(ObjectNode tls, String key) {
        fields.required(tls, "tls", key, PEM_PATH);
        return folder.resolve(fields.nonBlankString(tls, "tls", key).orElseThrow());
    }

    private List<GroupConfig> groups(ObjectNode root, Tuning defaults) {
        JsonNode node = fields.required(root, "", "groups", "a non-empty array of group objects");
        if (!node.isArray() || node.isEmpty()) {
            throw json.errorAtValue(
                    "groups",
                    "expected a non-empty array of group objects, got "
                            + (node.isArray() ? "[]" : ConfigFields.describe(node)));
        }
        List<GroupConfig> groups = new ArrayList<>();
        Map<String, String> pathByName = new HashMap<>();
        Map<String, String> pathByEndpoint = new HashMap<>();
        for (int i = 0; i < node.size(); i++) {
            String path = "groups[" + i + "]";
            JsonNode element = node.get(i);
            GroupConfig group =
                    fields.attempt(() -> group(fields.object(element, path, "a group object"), path, defaults), null);
            if (group == null) {
                continue; // its problems are noted; the other groups are still checked
            }
            String sameName = pathByName.putIfAbsent(group.name(), path);
            if (sameName != null) {
                fields.attempt(() -> {
                    throw json.errorAtValue(
                            path + ".name",
                            "duplicate group name '" + group.name() + "' (first at " + json.valueAt(sameName + ".name")
                                    + " in " + sameName + "); expected unique names");
                });
                continue;
            }
            String identity = new Endpoint(group.host(), group.port()).identity();
            String sameEndpoint = pathByEndpoint.putIfAbsent(identity, path);
            if (sameEndpoint != null) {
                fields.attempt(() -> {
                    throw json.errorAtValue(
                            path + ".endpoint",
                            "duplicate endpoint \"" + group.endpoint() + "\" (also used by " + sameEndpoint
                                    + " at " + json.valueAt(sameEndpoint + ".endpoint")
                                    + "); expected one endpoint per group");
                });
                continue;
            }
            groups.add(group);
        }
        return groups;
    }

    /** The group at {@code path}, or null when a key it cannot do without is bad (noted, as every problem). */
    private GroupConfig group(ObjectNode group, String path, Tuning defaults) {
        fields.allowOnly(group, path, GROUP_KEYS);
        String name = fields.attempt(
                () -> {
                    fields.required(group, path, "name", "the group name used by the program, like \"G1\"");
                    return fields.nonBlankString(group, path, "name").orElseThrow();
                },
                null);
        String endpointText = fields.attempt(
                () -> {
                    fields.required(group, path, "endpoint", "\"host:port\"");
                    return fields.string(group, path, "endpoint").orElseThrow();
                },
                null);
        Endpoint endpoint = endpointText == null
                ? null
                : fields.attempt(
                        () -> Endpoint.parse(endpointText, problem -> json.errorAtValue(path + ".endpoint", problem)),
                        null);
        String threadMapping = fields.attempt(() -> threadMapping(group, path), "");
        Tuning tuning = tuning(group, path, defaults);
        Optional<String> host = fields.attempt(() -> fields.nonBlankString(group, path, "host"), Optional.empty());
        Optional<String> preCmd = fields.attempt(() -> fields.string(group, path, "preCmd"), Optional.empty());
        List<String> jvmArgs = fields.attempt(() -> fields.strings(group, path, "jvmArgs"), List.of());
        Optional<String> tlsName =
                fields.attempt(() -> fields.nonBlankString(group, path, "tlsName"), Optional.empty());
        if (name == null || endpoint == null) {
            return null;
        }
        LocatedJson.Position start = json.valueAt(path);
        return new GroupConfig(
                name,
                endpointText,
                endpoint.host(),
                endpoint.port(),
                host.orElse(endpoint.host()),
                tuning.batchSize(),
                tuning.messageOTF(),
                tuning.internalMessageOTF(),
                tuning.flushDelayMicros(),
                tuning.maxBufferedBytesPerLink(),
                threadMapping,
                preCmd,
                jvmArgs,
                tlsName,
                start.line(),
                start.column());
    }

    private String threadMapping(ObjectNode group, String path) {
        String threadMapping = fields.string(group, path, "threadMapping").orElse("");
        if (!threadMapping.isBlank() && !CPU_LIST.matcher(threadMapping).matches()) {
            throw json.errorAtValue(
                    path + ".threadMapping",
                    "\"" + threadMapping + "\" is not a CPU list; expected comma-separated non-negative"
                            + " integers, like \"0,2,4\"");
        }
        return threadMapping;
    }
}
