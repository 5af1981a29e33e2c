package org.fastflowj.launcher.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.fastflowj.dist.CheckpointsConfig.SpareHost;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.process.HostMoves;

/**
 * The config every group of an attempt is given once groups have moved to spare hosts: a copy of the run's
 * config in which each moved group has its spare as {@code host} and the spare's address with the group's
 * own port as {@code endpoint}, and the spares taken are spares no more. It is written next to the run's
 * config, as {@code app.spares-<launcher pid>.json}: its relative paths resolve alike, and groups on other
 * hosts find it where they find the checkpoints. Every group of the attempt is given it, moved or not, since
 * all must agree on every endpoint (the handshake compares the configs' fingerprints). A moved group
 * without {@code tlsName} keeps the TLS identity it had, its former endpoint host, which its certificate
 * carries. The copy is deleted when the run ends.
 *
 * <p>Threading: used on the run's thread only.
 */
final class SpareConfig implements HostMoves.Planner, AutoCloseable {
    private final DffConfig config;
    private final Path configFile;
    private final Path copy;
    private final LaunchPlanner planner;

    SpareConfig(DffConfig config, Path configFile, LaunchPlanner planner) {
        this.config = config;
        this.configFile = configFile;
        this.planner = planner;
        String name = configFile.getFileName().toString().replaceFirst("\\.json$", "");
        this.copy = configFile.resolveSibling(
                name + ".spares-" + ProcessHandle.current().pid() + ".json");
    }

    @Override
    public List<GroupLaunch> plan(Map<String, SpareHost> moved) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode root = mapper.readTree(configFile.toFile());
        for (JsonNode node : root.get("groups")) {
            ObjectNode group = (ObjectNode) node;
            SpareHost spare = moved.get(group.path("name").asText());
            if (spare != null) {
                GroupConfig before = config.group(group.get("name").asText()).orElseThrow();
                group.put("host", spare.host());
                group.put("endpoint", spare.endpoint(before.port()));
                if (config.tls().isPresent() && before.tlsName().isEmpty()) {
                    group.put("tlsName", before.tlsIdentity());
                }
            }
        }
        dropTaken(root, moved.values());
        Path written = Files.createTempFile(copy.getParent(), copy.getFileName().toString(), ".tmp");
        try {
            mapper.writerWithDefaultPrettyPrinter().writeValue(written.toFile(), root);
            Files.move(written, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
        try {
            return planner.plan(DffConfig.load(copy), copy);
        } catch (ConfigException e) {
            throw new IOException("the config with the moved groups, " + copy + ", is refused: " + e.getMessage(), e);
        }
    }

    /** A spare a group runs on is no spare: the copy would be refused with it. */
    private static void dropTaken(JsonNode root, Collection<SpareHost> taken) {
        JsonNode spares = root.path("checkpoints").path("restart").path("spareHosts");
        if (!(spares instanceof ArrayNode list)) {
            return;
        }
        Set<String> hosts = taken.stream().map(SpareHost::host).collect(Collectors.toSet());
        for (int i = list.size() - 1; i >= 0; i--) {
            JsonNode entry = list.get(i);
            String host =
                    entry.isTextual() ? entry.textValue() : entry.path("host").asText();
            if (hosts.contains(host)) {
                list.remove(i);
            }
        }
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(copy);
    }
}
