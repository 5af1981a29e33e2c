package org.fastflowj.core.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.Graph;

/**
 * What a run shows the outside while it lives: its node MBeans, and its HTTP server with the live page
 * and the {@code /metrics} endpoint ({@link UiRoutes}). All read {@link RunStats} snapshots when asked,
 * so a run pays nothing per item for them. {@link #close()} takes everything down; it may be called
 * from several threads.
 *
 * <p>Life cycle: {@link #open} before the run starts, {@link #show} once it started, {@link #close} at
 * its end.
 */
public final class RunMetrics implements AutoCloseable {
    private static final RunMetrics NONE = new RunMetrics(false, null);
    private static final AtomicLong RUNS = new AtomicLong();

    private final boolean jmx;
    private final LoopbackHttpServer server;
    private boolean closed;
    private volatile List<ObjectName> beans = List.of();

    private RunMetrics(boolean jmx, LoopbackHttpServer server) {
        this.jmx = jmx;
        this.server = server;
    }

    /**
     * Binds the metrics port if {@code uiPort} is not -1, before the run starts, so that a busy port
     * fails the run before any node thread exists; {@link #show} then makes the run visible.
     *
     * @throws UncheckedIOException naming the port if it cannot be bound
     */
    public static RunMetrics open(boolean jmx, int uiPort) {
        if (!jmx && uiPort < 0) {
            return NONE;
        }
        LoopbackHttpServer server = null;
        if (uiPort >= 0) {
            try {
                server = LoopbackHttpServer.bind(uiPort);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "RunOptions.ui(" + uiPort + "): cannot serve metrics on port " + uiPort + ": " + e.getMessage(),
                        e);
            }
        }
        return new RunMetrics(jmx, server);
    }

    /**
     * Registers the MBeans and starts answering {@code /metrics} from {@code stats} snapshots; a daemon
     * thread closes all this when {@code awaitEnd} returns or throws (the run ended either way), so a
     * run nobody waits for is taken down too.
     */
    public void show(Supplier<RunStats> stats, Runnable awaitEnd) {
        show(null, stats, awaitEnd);
    }

    /**
     * As {@link #show(Supplier, Runnable)}, and the live page at {@code /} draws {@code graph} (the graph
     * the run started; null for none) with the counters of its threads.
     */
    public void show(Graph graph, Supplier<RunStats> stats, Runnable awaitEnd) {
        if (this == NONE) {
            return;
        }
        if (jmx) {
            beans = register(stats, RUNS.incrementAndGet());
        }
        if (server != null) {
            UiRoutes.install(server, graph, stats);
            server.start();
        }
        Thread watcher = new Thread(
                () -> {
                    try {
                        awaitEnd.run();
                    } catch (RuntimeException failedOrCancelled) {
                        // ended all the same; the run's owner hears of the failure from waitEnd
                    } finally {
                        close();
                    }
                },
                "ff-metrics-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The port {@code /metrics} is served on, or -1 if none. */
    public int port() {
        return server == null ? -1 : server.port();
    }

    /**
     * Takes everything down; the first call does it, and a call racing it returns only once it is done
     * (so that {@code waitEnd} returns with no MBean left, even while the watcher thread closes).
     */
    @Override
    public synchronized void close() {
        if (this == NONE || closed) {
            return;
        }
        closed = true;
        if (server != null) {
            server.close();
        }
        unregister(beans); // show() ran before this object reached waitEnd or the watcher thread
    }

    private static List<ObjectName> register(Supplier<RunStats> stats, long run) {
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        RunStats first = stats.get();
        List<ObjectName> names = new ArrayList<>();
        try {
            List<NodeStats> nodes = first.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                String node = nodes.get(i).name();
                ObjectName name = new ObjectName("org.fastflowj:type=Node,run=" + run + ",node=" + quoteIfNeeded(node));
                mbeans.registerMBean(new NodeBean(stats, i, node), name);
                names.add(name);
            }
            List<LinkStats> links = first.links();
            for (int i = 0; i < links.size(); i++) {
                String link = links.get(i).link();
                ObjectName name = new ObjectName("org.fastflowj:type=Link,run=" + run + ",link=" + quoteIfNeeded(link));
                mbeans.registerMBean(new LinkBean(stats, i, link), name);
                names.add(name);
            }
        } catch (JMException e) {
            unregister(names);
            throw new IllegalStateException("cannot register the run's MBeans: " + e.getMessage(), e);
        }
        return names;
    }

    private static void unregister(List<ObjectName> names) {
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : names) {
            try {
                mbeans.unregisterMBean(name);
            } catch (JMException e) {
                // already gone: nothing to take down
            }
        }
    }

    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (",=:\"*?\\\n".indexOf(value.charAt(i)) >= 0) {
                return ObjectName.quote(value);
            }
        }
        return value;
    }
}
