package org.fastflowj.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code checkpoints.restart.spareHosts}: the hosts the launcher restarts the groups of a lost host on.
 * Each entry is a host as a group's {@code host} key takes it, or an object {@code {"host": ..., "address":
 * ...}} when the moved groups' endpoints need another address than the host's name (always for {@code
 * netns:NAME}, which no other group can reach by that name). A spare must be no group's host: a group
 * moved onto a machine that runs another group would share the fate the move was meant to escape.
 *
 * <p>Threading: used by the reading thread only.
 */
final class SpareHostsReader {
    static final String KEY = "spareHosts";
    static final List<String> SPARE_KEYS = List.of("host", "address");
    /** A name or an IPv4/IPv6 address: what an endpoint's host part holds, brackets and port aside. */
    private static final Pattern ADDRESS =
            Pattern.compile("[A-Za-z0-9_.-]+|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f.]*(%[A-Za-z0-9_.-]+)?");

    private final ConfigFields fields;
    private final LocatedJson json;
    /** Every spare read, with its JSON path, for the checks against the groups. */
    private final Map<String, String> pathByHost = new LinkedHashMap<>();

    SpareHostsReader(ConfigFields fields) {
        this.fields = fields;
        this.json = fields.json();
    }

    /** The spares of {@code restart} (at {@code at}), each problem noted; an unusable entry is left out. */
    List<CheckpointsConfig.SpareHost> read(ObjectNode restart, String at) {
        JsonNode node = restart.get(KEY);
        if (node == null) {
            return List.of();
        }
        String path = at + "." + KEY;
        if (!node.isArray()) {
            throw json.errorAtValue(
                    path,
                    "expected an array of hosts (\"node7\", {\"host\": \"netns:ffj3\", \"address\": \"10.0.3.2\"}),"
                            + " got " + ConfigFields.describe(node));
        }
        List<CheckpointsConfig.SpareHost> spares = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String element = path + "[" + i + "]";
            JsonNode value = node.get(i);
            CheckpointsConfig.SpareHost spare = fields.attempt(() -> spare(value, element), null);
            if (spare == null) {
                continue;
            }
            String first = pathByHost.putIfAbsent(spare.host(), element);
            if (first != null) {
                fields.note(json.errorAtValue(
                        element,
                        "spare host \"" + spare.host() + "\" is listed twice (first at " + json.valueAt(first)
                                + "); expected each spare once"));
                continue;
            }
            spares.add(spare);
        }
        return spares;
    }

    /** Notes every spare that is the host of one of {@code groups}. */
    void checkAgainst(List<GroupConfig> groups) {
        for (GroupConfig g : groups) {
            String path = pathByHost.get(g.launchHost());
            if (path != null) {
                fields.note(json.errorAtValue(
                        path,
                        "spare host \"" + g.launchHost() + "\" is the host of group '" + g.name() + "' (at "
                                + g.line() + ":" + g.column() + "); expected a host no group starts on, as a group"
                                + " moved there would share the machine it was moved off"));
            }
        }
    }

    private CheckpointsConfig.SpareHost spare(JsonNode value, String path) {
        if (value.isTextual()) {
            return spare(value.textValue(), null, path, path);
        }
        if (!value.isObject()) {
            throw json.errorAtValue(
                    path,
                    "expected a host or an object with \"host\" and \"address\", got " + ConfigFields.describe(value));
        }
        ObjectNode object = (ObjectNode) value;
        fields.allowOnly(object, path, SPARE_KEYS);
        fields.required(object, path, "host", "the host the moved groups start on, as a group's \"host\"");
        String host = fields.string(object, path, "host").orElseThrow();
        String address = fields.nonBlankString(object, path, "address").orElse(null);
        return spare(host, address, path + ".host", path);
    }

    private CheckpointsConfig.SpareHost spare(String host, String address, String hostPath, String path) {
        if (host.isBlank()) {
            throw json.errorAtValue(hostPath, "expected a non-empty host, got \"" + host + "\"");
        }
        LaunchHosts.check(json, hostPath, host);
        if (address == null) {
            if (host.startsWith(GroupConfig.NETNS_HOST_PREFIX)) {
                throw json.errorAtValue(
                        path,
                        "spare \"" + host + "\" needs the address its groups listen on, which other namespaces"
                                + " reach it by; expected {\"host\": \"" + host + "\", \"address\": \"10.0.3.2\"}");
            }
            address = host.substring(host.lastIndexOf('@') + 1);
            if (address.startsWith("[") && address.endsWith("]")) {
                address = address.substring(1, address.length() - 1);
            }
        } else if (address.startsWith("-") || !ADDRESS.matcher(address).matches()) {
            throw json.errorAtValue(
                    path + ".address",
                    "\"" + address + "\" is no address; expected a host name or an IP address without brackets or"
                            + " port, like \"10.0.3.2\" or \"fd00::3\"");
        }
        return new CheckpointsConfig.SpareHost(host, address);
    }
}
