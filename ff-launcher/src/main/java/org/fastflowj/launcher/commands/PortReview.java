package org.fastflowj.launcher.commands;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.hosts.LocalHosts;

/**
 * What {@code check} adds to the config loader about the groups' ports, which the loader cannot judge
 * because it resolves no name and knows no machine:
 *
 * <ul>
 *   <li>a port inside Linux's ephemeral range: the kernel hands those out for outgoing connections, so
 *       another program's connection may hold the port when the group starts (a warning);
 *   <li>two groups started on one machine (or in one network namespace of it) with one port: an error when both would listen on the same
 *       address of this machine (or one on all of them), since the second cannot start; a warning
 *       otherwise, since a later change of either address makes them collide;
 *   <li>a group started in this machine's own network whose port this machine refuses it now (another
 *       program listens there): an error, found by binding the group's address and port and closing it at
 *       once. An address this machine cannot bind at all is left to the group to report.
 * </ul>
 *
 * <p>Threading: stateless.
 */
final class PortReview {
    /** Linux's default {@code net.ipv4.ip_local_port_range}. */
    static final int EPHEMERAL_FIRST = 32768;

    static final int EPHEMERAL_LAST = 60999;

    /** One message, {@code file:line:column:} first; an error makes {@code check} fail. */
    record Finding(boolean isError, String message) {}

    private final DffConfig config;
    private final LocalHosts local;
    private final List<Finding> findings = new ArrayList<>();

    private PortReview(DffConfig config, LocalHosts local) {
        this.config = config;
        this.local = local;
    }

    /** The findings for {@code config}'s groups, in file order. */
    static List<Finding> review(DffConfig config, LocalHosts local) {
        var review = new PortReview(config, local);
        review.run();
        return List.copyOf(review.findings);
    }

    private void run() {
        Map<String, GroupConfig> firstOnMachinePort = new HashMap<>();
        for (GroupConfig g : config.groups()) {
            if (g.port() >= EPHEMERAL_FIRST && g.port() <= EPHEMERAL_LAST) {
                warn(
                        g,
                        "group '" + g.name() + "' listens on port " + g.port()
                                + ", inside Linux's ephemeral port range ("
                                + EPHEMERAL_FIRST + "-" + EPHEMERAL_LAST
                                + "): another program's outgoing connection may hold it"
                                + " when the group starts; expected a port below " + EPHEMERAL_FIRST);
            }
            String machinePort = machine(g) + ":" + g.port();
            GroupConfig earlier = firstOnMachinePort.putIfAbsent(machinePort, g);
            if (earlier != null) {
                samePort(earlier, g);
            }
            portTaken(g);
        }
    }

    /** Whether this machine refuses {@code g} its port now, though it would give its address another. */
    private void portTaken(GroupConfig g) {
        InetAddress address = g.launchNamespace().isEmpty() ? resolvedHere(g) : null;
        if (address == null) {
            return;
        }
        String refusal = bindRefusal(new InetSocketAddress(address, g.port()));
        if (refusal != null && bindRefusal(new InetSocketAddress(address, 0)) == null) {
            findings.add(new Finding(
                    true,
                    at(g) + "group '" + g.name() + "' cannot listen on " + g.endpoint() + ": this machine refuses"
                            + " port " + g.port() + " now (" + refusal + "), another program may hold it;"
                            + " expected a port free on this machine"));
        }
    }

    /** Why binding {@code address} fails, or null when it can be bound (the socket is closed at once). */
    private static String bindRefusal(InetSocketAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(address);
            return null;
        } catch (IOException e) {
            return String.valueOf(e.getMessage());
        }
    }

    /** {@code later} and {@code earlier} are started on one machine and listen on one port. */
    private void samePort(GroupConfig earlier, GroupConfig later) {
        String both = "group '" + later.name() + "' and group '" + earlier.name() + "' (" + earlier.line() + ":"
                + earlier.column() + ") both listen on port " + later.port() + " of "
                + machineName(later);
        String expected = "; expected a port of its own for each group of one machine";
        InetAddress laterAddress = resolvedHere(later);
        InetAddress earlierAddress = resolvedHere(earlier);
        if (laterAddress != null && earlierAddress != null && overlap(laterAddress, earlierAddress)) {
            findings.add(new Finding(
                    true,
                    at(later) + both + " on overlapping addresses (" + later.endpoint() + " is "
                            + laterAddress.getHostAddress() + ", " + earlier.endpoint() + " is "
                            + earlierAddress.getHostAddress() + "): the second one cannot start" + expected));
        } else {
            warn(
                    later,
                    both + ", on different addresses (" + later.endpoint() + ", " + earlier.endpoint()
                            + "): a later change of either address makes them collide" + expected);
        }
    }

    /** Two listening sockets on one port collide when their addresses are equal or one is the wildcard. */
    private static boolean overlap(InetAddress a, InetAddress b) {
        return a.equals(b) || a.isAnyLocalAddress() || b.isAnyLocalAddress();
    }

    /**
     * The address the group binds, as the group itself resolves it; only for a group of this machine (a
     * remote machine may resolve names differently) and only when the name resolves here.
     */
    private InetAddress resolvedHere(GroupConfig g) {
        // A namespace of this machine resolves names as this machine does.
        if (g.launchNamespace().isEmpty() && !local.isLocal(g.launchHost())) {
            return null;
        }
        try {
            return InetAddress.getByName(g.host());
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The machine (or network namespace) a group listens in: "" for this machine's own network. */
    private String machine(GroupConfig g) {
        if (g.launchNamespace().isPresent()) {
            return g.launchHost(); // a namespace's ports are its own, apart from this machine's
        }
        return local.isLocal(g.launchHost()) ? "" : g.launchHost().toLowerCase(Locale.ROOT);
    }

    private String machineName(GroupConfig g) {
        return g.launchNamespace()
                .map(namespace -> "network namespace " + namespace)
                .orElseGet(() -> machine(g).isEmpty() ? "this machine" : "host " + g.launchHost());
    }

    private void warn(GroupConfig g, String what) {
        findings.add(new Finding(false, at(g) + "warning: " + what));
    }

    private String at(GroupConfig g) {
        return config.source() + ":" + g.line() + ":" + g.column() + ": ";
    }
}
