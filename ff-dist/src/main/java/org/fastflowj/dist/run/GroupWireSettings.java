package org.fastflowj.dist.run;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.net.TlsFiles;
import org.fastflowj.dist.net.WireSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a group's transport is told, from its config and environment, and the rule that no group
 * runs unauthenticated where a stranger could reach it.
 *
 * <p>The secret: the config's ({@code secretFile}/{@code secretEnv}) if it names one, else the
 * launcher's per-run secret in {@link DFF#SECRET_ENV}. A group with neither and without TLS starts only
 * if every endpoint of the config is a loopback address, or the config says {@code "insecure": true}
 * (then it warns); otherwise it fails with a {@link ConfigException} naming the first non-loopback
 * endpoint and the ways out.
 *
 * <p>Threading: stateless; called once per group run, on the thread that starts it.
 */
final class GroupWireSettings {
    private static final Logger LOG = LoggerFactory.getLogger(GroupWireSettings.class);

    private GroupWireSettings() {}

    static WireSettings of(
            DffConfig config, String group, long fingerprint, long handshakeTimeoutMs, UnaryOperator<String> env) {
        byte[] secret = secret(config, env);
        TlsFiles tls = config.tls()
                .filter(t -> t.enabled())
                .map(t -> new TlsFiles(t.certFile(), t.keyFile(), t.trustFile()))
                .orElse(null);
        if (secret == null && tls == null) {
            requireLoopbackOrInsecure(config, group);
        }
        Map<String, String> tlsNames = new HashMap<>();
        for (GroupConfig g : config.groups()) {
            tlsNames.put(g.name(), g.tlsIdentity());
        }
        return new WireSettings(
                group,
                fingerprint,
                secret,
                tls,
                tlsNames,
                Boolean.getBoolean(DFF.SEAL_LOOPBACK_PROPERTY),
                Math.max(1, config.connectTimeoutMs()),
                handshakeTimeoutMs,
                config.heartbeatIntervalMs(),
                config.heartbeatTimeoutMs(),
                config.maxFrameBytes());
    }

    /** The config's secret if it names one, else the launcher's, else null. */
    static byte[] secret(DffConfig config, UnaryOperator<String> env) {
        if (config.secretFile().isPresent() || config.secretEnv().isPresent()) {
            return config.secret().orElseThrow();
        }
        String launcherSecret = env.apply(DFF.SECRET_ENV);
        if (launcherSecret == null) {
            return null;
        }
        if (launcherSecret.isEmpty()) {
            throw new ConfigException(
                    config.source(),
                    0,
                    0,
                    "the environment variable " + DFF.SECRET_ENV + " is set but empty; expected the run's secret"
                            + " (the launcher sets it), or unset it");
        }
        return launcherSecret.getBytes(StandardCharsets.UTF_8);
    }

    private static void requireLoopbackOrInsecure(DffConfig config, String group) {
        for (int i = 0; i < config.groups().size(); i++) {
            GroupConfig g = config.groups().get(i);
            if (isLoopback(g.host())) {
                continue;
            }
            if (!config.insecure()) {
                throw new ConfigException(
                        config.source(),
                        g.line(),
                        g.column(),
                        "groups[" + i + "].endpoint: group '" + g.name() + "' uses the non-loopback endpoint \""
                                + g.endpoint() + "\" and group '" + group + "' has no secret: anyone who can reach"
                                + " the endpoints could join the run. Start the groups with the launcher (it gives"
                                + " each run a secret in " + DFF.SECRET_ENV + "), give the config a secretFile or"
                                + " secretEnv (or tls), or set \"insecure\": true to run unauthenticated anyway");
            }
            LOG.warn(
                    "group {} runs UNAUTHENTICATED (\"insecure\": true in {}, no secret, no TLS): anyone who can"
                            + " reach {} can join the run and send it items",
                    group,
                    config.source(),
                    g.endpoint());
            return;
        }
    }

    /**
     * Whether {@code host} is a loopback address: {@code localhost}, or an address that resolves only to
     * loopback addresses. A name that does not resolve is not.
     */
    static boolean isLoopback(String host) {
        if (host.toLowerCase(Locale.ROOT).equals("localhost")) {
            return true;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}
