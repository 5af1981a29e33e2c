package org.fastflowj.launcher.hosts;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a config's host is this machine, so that its group starts as a local process rather
 * than through ssh: {@code localhost}, any loopback or wildcard address, an address of a local interface,
 * this machine's host name, or a name that resolves to one of those.
 *
 * <p>Threading: immutable after construction, safe to share.
 */
public final class LocalHosts {
    private final Set<String> names = new HashSet<>();
    private final Set<InetAddress> addresses = new HashSet<>();

    private LocalHosts() {}

    /** This machine's names and interface addresses, read once. */
    public static LocalHosts detect() {
        LocalHosts local = new LocalHosts();
        local.names.add("localhost");
        try {
            String hostName = InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
            local.names.add(hostName);
            local.names.add(shortName(hostName));
        } catch (UnknownHostException e) {
            // A machine whose own name does not resolve still knows its interfaces below.
        }
        try {
            for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
                nic.inetAddresses().forEach(local.addresses::add);
            }
        } catch (SocketException e) {
            // Without the interface list only names and loopback count as local.
        }
        return local;
    }

    /** Whether {@code host} (a name or an address literal, without IPv6 brackets) is this machine. */
    public boolean isLocal(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        if (names.contains(lower) || names.contains(shortName(lower))) {
            return true;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (address.isLoopbackAddress() || address.isAnyLocalAddress() || addresses.contains(address)) {
                    return true;
                }
            }
        } catch (UnknownHostException e) {
            // A name this machine cannot resolve is somebody else's (an ssh alias, say).
        }
        return false;
    }

    private static String shortName(String hostName) {
        int dot = hostName.indexOf('.');
        // An address literal such as 10.0.0.1 has dots but no short name.
        return dot > 0 && !Character.isDigit(hostName.charAt(0)) ? hostName.substring(0, dot) : hostName;
    }
}
