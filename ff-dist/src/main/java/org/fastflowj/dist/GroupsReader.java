package org.fastflowj.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.fastflowj.core.Group;

/**
 * The {@code groups} array of a config and the tuning keys a group shares with the top level: each group
 * checked key by key, then names and endpoints checked to be unique. Problems are noted in
 * {@link ConfigFields}, so one bad group does not hide the next one's.
 *
 * <p>Threading: used by the reading thread only.
 */
final class GroupsReader {
    private static final Pattern CPU_LIST = Pattern.compile("\\s*\\d{1,9}\\s*(,\\s*\\d{1,9}\\s*)*");

    private final ConfigFields fields;
    private final LocatedJson json;

    GroupsReader(ConfigFields fields) {
        this.fields = fields;
        this.json = fields.json();
    }

    /** The tuning keys of {@code object}, each falling back to {@code fallback}'s value. */
    static Tuning tuning(ConfigFields fields, ObjectNode object, String path, Tuning fallback) {
        return new Tuning(
                fields.attempt(() -> fields.batchSize(object, path, fallback.batchSize()), fallback.batchSize()),
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

    /** The groups of the config, every problem of each noted (an unusable group is left out). */
    List<GroupConfig> groups(ObjectNode root, Tuning defaults) {
        JsonNode node = fields.required(root, "", "groups", "a non-empty array of group objects");
        if (!node.isArray() || node.isEmpty()) {
            throw json.errorAtValue(
                    "groups",
                    "expected a non-empty array of group objects, got "
                            + (node.isArray() ? "[]" : ConfigFields.describe(node)));
        }
        List<GroupConfig> groups = new ArrayList<>();
        List<String> paths = new ArrayList<>();
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
                fields.note(json.errorAtValue(
                        path + ".name",
                        "duplicate group name '" + group.name() + "' (first at " + json.valueAt(sameName + ".name")
                                + " in " + sameName + "); expected unique names"));
                continue;
            }
            String identity = new Endpoint(group.host(), group.port()).identity();
            String sameEndpoint = pathByEndpoint.putIfAbsent(identity, path);
            if (sameEndpoint != null) {
                fields.note(json.errorAtValue(
                        path + ".endpoint",
                        "duplicate endpoint \"" + group.endpoint() + "\" (also used by " + sameEndpoint
                                + " at " + json.valueAt(sameEndpoint + ".endpoint")
                                + "); expected one endpoint per group"));
                continue;
            }
            groups.add(group);
            paths.add(path);
        }
        checkBlocksEverywhereOrNowhere(groups, paths);
        return groups;
    }

    /**
     * The groups come from the config or from the program's code, never some from each: a program that
     * creates some groups itself has its whole layout in its code, and the config cannot add to it.
     */
    private void checkBlocksEverywhereOrNowhere(List<GroupConfig> groups, List<String> paths) {
        GroupConfig listing =
                groups.stream().filter(g -> g.blocks().isPresent()).findFirst().orElse(null);
        if (listing == null) {
            return;
        }
        BlockList listed = listing.blocks().orElseThrow();
        for (int i = 0; i < groups.size(); i++) {
            GroupConfig g = groups.get(i);
            if (g.blocks().isEmpty()) {
                fields.note(json.errorAtValue(
                        paths.get(i),
                        "group '" + g.name() + "' has no \"blocks\", but group '" + listing.name() + "' lists its"
                                + " blocks (at " + listed.line() + ":" + listed.column() + "): give the blocks of"
                                + " every group in the config, or of none (the program then creates its groups"
                                + " in code)"));
            }
        }
    }

    /** The group at {@code path}, or null when a key it cannot do without is bad (noted, as every problem). */
    private GroupConfig group(ObjectNode group, String path, Tuning defaults) {
        fields.allowOnly(group, path, ConfigReader.GROUP_KEYS);
        String name = fields.attempt(
                () -> {
                    fields.required(group, path, "name", "the group name used by the program, like \"G1\"");
                    return groupName(group, path);
                },
                null);
        String endpointText = fields.attempt(
                () -> {
                    fields.required(group, path, "endpoint", "\"host:port\"");
                    return fields.string(group, path, "endpoint").orElseThrow();
                },
                null);
        Endpoint endpoint = endpointText == null ? null : fields.attempt(() -> endpoint(endpointText, path), null);
        String threadMapping = fields.attempt(() -> threadMapping(group, path), "");
        Tuning tuning = tuning(fields, group, path, defaults);
        Optional<String> host = fields.attempt(() -> launchHost(group, path), Optional.empty());
        Optional<String> preCmd = fields.attempt(() -> fields.string(group, path, "preCmd"), Optional.empty());
        List<String> jvmArgs = fields.attempt(() -> fields.strings(group, path, "jvmArgs"), List.of());
        Optional<String> tlsName =
                fields.attempt(() -> fields.nonBlankString(group, path, "tlsName"), Optional.empty());
        // A bad list is noted; the group still counts as one that lists its blocks, which it meant to.
        Optional<BlockList> blocks =
                fields.attempt(() -> blocks(group, path), Optional.of(new BlockList(List.of(), 0, 0)));
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
                start.column(),
                blocks);
    }

    /** The {@code blocks} key: non-blank strings, at least one; what each names is resolved against the tree. */
    private Optional<BlockList> blocks(ObjectNode group, String path) {
        if (!group.has("blocks")) {
            return Optional.empty();
        }
        String at = path + ".blocks";
        List<String> texts = fields.strings(group, path, "blocks");
        if (texts.isEmpty()) {
            throw json.errorAtValue(
                    at, "expected at least one block name, like [\"reader\"] or [\"search.workers[0-3]\"]");
        }
        List<BlockList.Entry> entries = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String element = at + "[" + i + "]";
            if (texts.get(i).isBlank()) {
                throw json.errorAtValue(element, "expected a block name, got \"" + texts.get(i) + "\"");
            }
            LocatedJson.Position where = json.valueAt(element);
            entries.add(new BlockList.Entry(texts.get(i).strip(), where.line(), where.column()));
        }
        LocatedJson.Position key = json.keyAt(at);
        return Optional.of(new BlockList(entries, key.line(), key.column()));
    }

    /** The {@code name} key: {@link Group#NAME_RULE}, since the launcher names files and arguments after it. */
    private String groupName(ObjectNode group, String path) {
        String name = fields.string(group, path, "name").orElseThrow();
        if (!Group.isValidName(name)) {
            throw json.errorAtValue(
                    path + ".name", "\"" + name + "\" is not a group name; expected " + Group.NAME_RULE);
        }
        return name;
    }

    /** The {@code endpoint} key; its host is where ssh goes when there is no {@code host}, so no option. */
    private Endpoint endpoint(String text, String path) {
        Endpoint endpoint = Endpoint.parse(text, problem -> json.errorAtValue(path + ".endpoint", problem));
        if (endpoint.host().startsWith("-")) {
            throw json.errorAtValue(path + ".endpoint", "\"" + text + "\": " + LaunchHosts.OPTION_LIKE_HOST);
        }
        return endpoint;
    }

    /** The {@code host} key, as {@link LaunchHosts#check} allows it. */
    private Optional<String> launchHost(ObjectNode group, String path) {
        Optional<String> host = fields.nonBlankString(group, path, "host");
        host.ifPresent(text -> LaunchHosts.check(json, path + ".host", text));
        return host;
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
