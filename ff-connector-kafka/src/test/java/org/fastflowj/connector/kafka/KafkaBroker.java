package org.fastflowj.connector.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker, Kafka's own {@code kafka.Kafka} in KRaft mode (one process as broker and
 * controller), in a child JVM on loopback: free ports, a temporary log directory, the test's own class
 * path (which holds {@code kafka_2.13}). {@link #close()} kills its process tree and deletes the directory.
 */
final class KafkaBroker implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 60_000;

    private final Path dir;
    private final int port;
    private final Path log;
    private Process process;
    private Admin admin;

    private KafkaBroker(Path dir, int port) {
        this.dir = dir;
        this.port = port;
        this.log = dir.resolve("broker.log");
    }

    /** Formats a fresh log directory and starts the broker; returns once it accepts connections. */
    static KafkaBroker start() throws Exception {
        Path dir = Files.createTempDirectory("ff-kafka-broker-");
        int[] ports = freePorts(2);
        KafkaBroker broker = new KafkaBroker(dir, ports[0]);
        try {
            broker.launch(ports[1]);
            return broker;
        } catch (Exception | AssertionError e) {
            broker.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    void createTopic(String name, int partitions) throws Exception {
        createTopic(name, partitions, Map.of());
    }

    /**
     * Creates the topic and returns once the broker leads every partition. Without the wait, an idempotent
     * producer's first batch can meet NOT_LEADER_OR_FOLLOWER while its next batches, sent after the
     * broker took the lead, are appended: the first one's retries then fail with OUT_OF_ORDER_SEQUENCE
     * until the delivery timeout.
     */
    void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        admin().createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                .all()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ends.put(new TopicPartition(name, p), OffsetSpec.latest());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                // answered by each partition's leader only once it leads
                admin().listOffsets(ends).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("topic " + name + " has no leader after 30 s:\n" + output(), e);
                }
                Thread.sleep(50);
            }
        }
    }

    synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrapServers(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    "30000"));
        }
        return admin;
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no broker output: " + e + ")";
        }
    }

    private void launch(int controllerPort) throws Exception {
        Path config = dir.resolve("server.properties");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "log.dirs=" + dir.resolve("data"),
                        // One replica of everything, and topics only as the tests create them.
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "transaction.state.log.num.partitions=1",
                        "share.coordinator.state.topic.replication.factor=1",
                        "share.coordinator.state.topic.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        "auto.create.topics.enable=false",
                        // Tests write records with timestamps long past: keep them, whatever their age.
                        "log.retention.ms=-1",
                        // A small machine: few threads.
                        "num.network.threads=2",
                        "num.io.threads=2",
                        "background.threads=2",
                        "num.recovery.threads.per.data.dir=1",
                        ""));
        String clusterId = Uuid.randomUuid().toString();
        Process format = java(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString()))
                .start();
        if (!format.waitFor(START_TIMEOUT_MS, TimeUnit.MILLISECONDS) || format.exitValue() != 0) {
            format.descendants().forEach(ProcessHandle::destroyForcibly);
            format.destroyForcibly();
            throw new AssertionError("Kafka's StorageTool could not format " + dir + ":\n" + output());
        }
        process = java(List.of("kafka.Kafka", config.toString())).start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (!listening()) {
            if (!process.isAlive()) {
                throw new AssertionError("the Kafka broker exited with " + process.exitValue() + ":\n" + output());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the Kafka broker does not listen on " + bootstrapServers() + " after "
                        + START_TIMEOUT_MS + " ms:\n" + output());
            }
            Thread.sleep(100);
        }
    }

    private ProcessBuilder java(List<String> mainAndArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-Xshare:auto");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    private boolean listening() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The broker's output outlives its directory in target/, for a failure seen after the run. */
    private void keepLog() {
        Path target = Path.of("target");
        if (Files.isRegularFile(log) && Files.isDirectory(target)) {
            try {
                Files.copy(log, target.resolve("kafka-broker.log"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                // only a diagnostic
            }
        }
    }

    /** Ports free now on loopback, each different, outside the ephemeral range. */
    static int[] freePorts(int n) {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            ports[i] = org.fastflowj.testing.FreePorts.next();
        }
        return ports;
    }

    @Override
    public void close() {
        Admin a;
        synchronized (this) {
            a = admin;
            admin = null;
        }
        if (a != null) {
            a.close(java.time.Duration.ofSeconds(2));
        }
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        keepLog();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
