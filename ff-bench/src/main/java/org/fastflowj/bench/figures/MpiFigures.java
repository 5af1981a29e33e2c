package org.fastflowj.bench.figures;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DF-Threads paper's Fig. 3: the blocked matrix product of FastFlow-J (ff-examples' {@code matmul}, a
 * macro data-flow task per block product) against an OpenMPI program of the same product
 * ({@code ff-bench/mpi/matmul_mpi.c}: static row-block distribution, B broadcast), on 1, 2 and 4 hosts of
 * the emulated cluster. Both get one compute thread per host: {@code matmul --workers 1} in each group (G0
 * on host 1, Gi on host i+1, started by ff-launcher) and one MPI rank per host (mpirun inside host 1, the
 * other ranks started through {@code ff-bench/mpi/netns-rsh}). Both print the same digest of C, or the
 * figure fails.
 *
 * <p>Needs {@code mpicc} and {@code mpirun} (openmpi-bin, libopenmpi-dev) and a cluster of 4 hosts
 * ({@code cluster.sh up 4}); skipped otherwise, saying why. A cell whose FastFlow-J time, estimated from the
 * same block size and hosts at a smaller order, exceeds the scale's budget is skipped and noted.
 */
final class MpiFigures {
    private MpiFigures() {}

    static final String NAME = "dfthreads-mpi";

    static final List<Integer> HOSTS = List.of(1, 2, 4);

    static final Figure DFTHREADS_MPI = new Figure() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void run(Context c) throws Exception {
            Optional<String> missing = missingTools(System.getenv("PATH"));
            if (missing.isPresent()) {
                c.log().note(NAME, "skipped: " + missing.get());
                return;
            }
            if (c.clusterPrefix() == null
                    || !Files.exists(Path.of("/run/netns", c.clusterPrefix() + HOSTS.get(HOSTS.size() - 1)))) {
                c.log()
                        .note(
                                NAME,
                                "skipped: no emulated cluster of 4 hosts (cluster.sh up 4, then --cluster ffj)"
                                        + (c.clusterPrefix() == null
                                                ? ""
                                                : ": no namespace " + c.clusterPrefix() + "4"));
                return;
            }
            new Comparison(c).run();
        }
    };

    /** Why the MPI side cannot run here, or empty when {@code mpicc} and {@code mpirun} are on {@code path}. */
    static Optional<String> missingTools(String path) {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("mpicc", "mpirun")) {
            boolean found = path != null
                    && List.of(path.split(File.pathSeparator)).stream()
                            .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
            if (!found) {
                missing.add(tool);
            }
        }
        return missing.isEmpty()
                ? Optional.empty()
                : Optional.of(String.join(" and ", missing)
                        + " not on the PATH (apt-get install openmpi-bin libopenmpi-dev)");
    }

    /** The orders of the matrix at a scale; the paper's are 216, 432 and 864. */
    static List<Integer> orders(Scale scale) {
        return scale == Scale.SMOKE ? List.of(216) : List.of(216, 432, 864);
    }

    /** Block sizes tried at every order; one that does not divide the order is skipped there. */
    static List<Integer> blocks(Scale scale) {
        return scale == Scale.SMOKE ? List.of(24) : List.of(8, 24, 32);
    }

    /** Seconds one run may be estimated to take, and more or less what a cell's repetitions may take. */
    static double budgetSeconds(Scale scale) {
        return switch (scale) {
            case SMOKE -> 30;
            case SHORT -> 120;
            case PAPER -> 900;
        };
    }

    /** What one program printed: its time, C's digest and the CPU seconds of every process that said. */
    record Printed(double seconds, String digest, List<Double> cpuSeconds) {
        /** CPU seconds over every process, or NaN unless exactly {@code processes} of them printed theirs. */
        double cpuTotal(int processes) {
            return cpuSeconds.size() == processes
                    ? cpuSeconds.stream().mapToDouble(Double::doubleValue).sum()
                    : Double.NaN;
        }
    }

    // FastFlow-J's lines come through the launcher as "[G0] time: ...", MPI's from rank 0 bare.
    private static final Pattern TIME = Pattern.compile("(?m)^(?:\\[\\w+\\] )?time: ([0-9.]+) s for n=");
    private static final Pattern DIGEST = Pattern.compile("(?m)^(?:\\[\\w+\\] )?digest: ([0-9a-f]{16})$");
    private static final Pattern CPU = Pattern.compile("(?m)^(?:\\[\\w+\\] )?cpu: ([0-9.]+) s in this process");

    /** Parses matmul's or matmul_mpi's output; {@code what} names the run in the error when a line is missing. */
    static Printed parse(String what, String printed) {
        Matcher time = TIME.matcher(printed);
        Matcher digest = DIGEST.matcher(printed);
        if (!time.find() || !digest.find()) {
            throw new IllegalStateException(what + ": no time or no digest line in its output:\n" + printed);
        }
        List<Double> cpu = new ArrayList<>();
        Matcher m = CPU.matcher(printed);
        while (m.find()) {
            cpu.add(Double.parseDouble(m.group(1)));
        }
        return new Printed(Double.parseDouble(time.group(1)), digest.group(1), List.copyOf(cpu));
    }

    /** A FastFlow-J run's seconds at order {@code n}, from one at {@code measuredN}: work and tasks grow as n³. */
    static double estimateSeconds(int measuredN, double measuredSeconds, int n) {
        double ratio = (double) n / measuredN;
        return measuredSeconds * ratio * ratio * ratio;
    }

    /**
     * What is known of a series (one block size, one host count) at its largest order run so far: the
     * median seconds there, or that it failed.
     */
    record Known(int n, double seconds, String failure) {
        static Known measured(int n, double seconds) {
            return new Known(n, seconds, null);
        }

        static Known failed(int n, String why) {
            return new Known(n, Double.NaN, why);
        }
    }

    /** Why a cell is not run, or empty when it is: the block must divide n, the estimate stay in the budget. */
    static Optional<String> skipReason(int n, int block, Known known, double budgetSeconds) {
        if (n % block != 0) {
            return Optional.of("block " + block + " does not divide n=" + n);
        }
        if (known == null) {
            return Optional.empty();
        }
        if (known.failure() != null) {
            return Optional.of("the same series failed at n=" + known.n() + " (" + known.failure() + ")");
        }
        double estimate = estimateSeconds(known.n(), known.seconds(), n);
        if (estimate > budgetSeconds) {
            return Optional.of(String.format(
                    Locale.ROOT,
                    "FastFlow-J estimated at %.0f s (%.1f s at n=%d, times (n/%d)^3), over the budget of %.0f s",
                    estimate,
                    known.seconds(),
                    known.n(),
                    known.n(),
                    budgetSeconds));
        }
        return Optional.empty();
    }

    /** One run of the figure: compiles the MPI program, then every cell in order of growing n. */
    private static final class Comparison {
        private final Context c;
        private final String prefix;
        private final double budget;
        private final long timeoutSeconds;
        private final ClusterGroups launcher;
        private final Path mpiSources;
        private final Path binary;
        private final Map<String, Known> known = new LinkedHashMap<>();
        private final List<String> mismatches = new ArrayList<>();
        /** Bytes through host 1 during the last run of each program, NaN when its counters cannot be read. */
        private double lastFfjBytes = Double.NaN;

        private double lastMpiBytes = Double.NaN;

        Comparison(Context c) {
            this.c = c;
            this.prefix = c.clusterPrefix();
            this.budget = budgetSeconds(c.scale());
            // An estimate within the budget can still be off (n³ is a floor for the groups' traffic): the
            // timeout leaves room, and ends a run that would otherwise hang the suite.
            this.timeoutSeconds = (long) (2 * budget) + 60;
            this.launcher = new ClusterGroups(prefix, c.scratch(), timeoutSeconds);
            this.mpiSources = mpiSources();
            this.binary = c.scratch().resolve("matmul_mpi");
        }

        void run() throws Exception {
            compile();
            int repetitions = c.scale().repetitions;
            for (int n : orders(c.scale())) {
                for (int block : blocks(c.scale())) {
                    String digest = null;
                    for (int hosts : HOSTS) {
                        String cell = "n=" + n + " block " + block;
                        String key = block + "/" + hosts;
                        Optional<String> skip = skipReason(n, block, known.get(key), budget);
                        if (skip.isPresent()) {
                            c.log().note(NAME, cell + " on " + hosts + " hosts skipped: " + skip.get());
                            continue;
                        }
                        List<Double> ffjTimes = new ArrayList<>();
                        long cellStart = System.nanoTime();
                        for (int rep = 0; rep < repetitions; rep++) {
                            long repStart = System.nanoTime();
                            Printed ffj;
                            Printed mpi;
                            try {
                                ffj = ffj(n, block, hosts);
                                // MPI has been the faster: a run far slower than FastFlow-J's is stuck.
                                mpi = mpi(n, block, hosts, 60 + 2 * (long) Math.ceil(ffj.seconds()));
                            } catch (IllegalStateException e) {
                                String why = firstLine(e.getMessage());
                                known.put(key, Known.failed(n, why));
                                c.log().note(NAME, cell + " on " + hosts + " hosts failed: " + e.getMessage());
                                break;
                            }
                            if (!ffj.digest().equals(mpi.digest())
                                    || (digest != null && !digest.equals(ffj.digest()))) {
                                mismatches.add(cell + " on " + hosts + " hosts: FastFlow-J " + ffj.digest() + ", MPI "
                                        + mpi.digest() + (digest == null ? "" : ", fewer hosts " + digest));
                            }
                            digest = digest == null ? ffj.digest() : digest;
                            record(cell, hosts, rep, ffj, mpi);
                            ffjTimes.add(ffj.seconds());
                            double spent = (System.nanoTime() - cellStart) / 1e9;
                            double last = (System.nanoTime() - repStart) / 1e9;
                            if (rep + 1 < repetitions && spent + last > budget) {
                                c.log()
                                        .note(
                                                NAME,
                                                cell + " on " + hosts + " hosts: " + (rep + 1) + " of " + repetitions
                                                        + " repetitions (the cell's budget of " + (long) budget
                                                        + " s)");
                                break;
                            }
                        }
                        if (!ffjTimes.isEmpty()) {
                            known.put(key, Known.measured(n, Plots.median(ffjTimes)));
                        }
                    }
                    if (digest != null) {
                        c.log()
                                .note(
                                        NAME,
                                        "n=" + n + " block " + block + ": digest " + digest
                                                + (mismatches.isEmpty()
                                                        ? ", FastFlow-J's and MPI's, on every host count run"
                                                        : ""));
                    }
                }
            }
            c.log()
                    .note(
                            NAME,
                            "one compute thread per host: matmul --workers 1 in each group (G0 on host 1 also runs the"
                                    + " generator and scheduler), one MPI rank per host; every host of the cluster shares"
                                    + " this machine's " + Runtime.getRuntime().availableProcessors() + " cores");
            // The run line has the load at the start; other processes' load would slow both programs.
            c.log()
                    .note(
                            NAME,
                            String.format(
                                    Locale.ROOT,
                                    "load average at the end: %.2f",
                                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
            draw();
            if (!mismatches.isEmpty()) {
                throw new IllegalStateException("FastFlow-J's and MPI's products differ: " + mismatches);
            }
        }

        private void record(String cell, int hosts, int rep, Printed ffj, Printed mpi) {
            c.log().point(NAME, cell, hosts, rep, ffj.seconds() / mpi.seconds(), "FastFlow-J time / MPI time");
            c.log().point(NAME + "-times", "FF-J " + cell, hosts, rep, ffj.seconds(), "s");
            c.log().point(NAME + "-times", "MPI " + cell, hosts, rep, mpi.seconds(), "s");
            double ffjCpu = ffj.cpuTotal(hosts);
            double mpiCpu = mpi.cpuTotal(hosts);
            if (!Double.isNaN(ffjCpu) && !Double.isNaN(mpiCpu)) {
                c.log().point(NAME + "-cpu", "FF-J " + cell, hosts, rep, ffjCpu, "CPU s, all processes");
                c.log().point(NAME + "-cpu", "MPI " + cell, hosts, rep, mpiCpu, "CPU s, all processes");
            }
            if (!Double.isNaN(lastFfjBytes) && !Double.isNaN(lastMpiBytes)) {
                c.log()
                        .point(
                                NAME + "-bytes",
                                "FF-J " + cell,
                                hosts,
                                rep,
                                lastFfjBytes / 1e6,
                                "MB in and out of host 1");
                c.log()
                        .point(
                                NAME + "-bytes",
                                "MPI " + cell,
                                hosts,
                                rep,
                                lastMpiBytes / 1e6,
                                "MB in and out of host 1");
            }
        }

        private Printed ffj(int n, int block, int hosts) throws IOException, InterruptedException {
            List<ClusterGroups.Placement> placements = new ArrayList<>();
            for (int g = 0; g < hosts; g++) {
                placements.add(new ClusterGroups.Placement("G" + g, 1 + g));
            }
            double before = hostOneBytes();
            String printed = launcher.run(
                    NAME + "-ffj-" + hosts,
                    placements,
                    "\"auto\"",
                    List.of(
                            "matmul",
                            "--n",
                            Integer.toString(n),
                            "--block",
                            Integer.toString(block),
                            "--groups",
                            Integer.toString(hosts),
                            "--workers",
                            "1"));
            lastFfjBytes = hostOneBytes() - before;
            return parse("matmul n=" + n + " block " + block + " in " + hosts + " groups", printed);
        }

        private Printed mpi(int n, int block, int hosts, long timeout) throws IOException, InterruptedException {
            List<String> addresses = new ArrayList<>();
            for (int h = 1; h <= hosts; h++) {
                addresses.add(ShapedLink.SUBNET + h);
            }
            String subnet = ShapedLink.SUBNET + "0/24";
            List<String> command = List.of(
                    "ip",
                    "netns",
                    "exec",
                    prefix + "1",
                    "mpirun",
                    "--allow-run-as-root",
                    "--oversubscribe",
                    "--mca",
                    "plm_rsh_agent",
                    mpiSources.resolve("netns-rsh").toString(),
                    "--mca",
                    "btl",
                    "tcp,self",
                    "--mca",
                    "btl_tcp_if_include",
                    subnet,
                    "--mca",
                    "oob_tcp_if_include",
                    subnet,
                    // The hosts share this machine's cores, which mpirun cannot see (one rank per host): what it
                    // does by itself on one oversubscribed host, a rank waiting for a message yields its core.
                    "--mca",
                    "mpi_yield_when_idle",
                    "1",
                    "--host",
                    String.join(",", addresses),
                    "-np",
                    Integer.toString(hosts),
                    binary.toString(),
                    Integer.toString(n),
                    Integer.toString(block));
            Path log = c.scratch().resolve(NAME + "-mpirun-" + hosts + ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("FFJ_CLUSTER_PREFIX", prefix);
            double before = hostOneBytes();
            String what = "matmul_mpi n=" + n + " block " + block + " on " + hosts + " hosts";
            String printed = runToEnd(builder, log, what, timeout);
            lastMpiBytes = hostOneBytes() - before;
            return parse(what, printed);
        }

        /** Runs a command to its end within the timeout; its output, or an error quoting it. */
        private String runToEnd(ProcessBuilder builder, Path log, String what, long timeout)
                throws IOException, InterruptedException {
            Process process = builder.start();
            try {
                if (!process.waitFor(timeout, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(what + ": timed out after " + timeout + " s; output " + log);
                }
                String printed = Files.readString(log, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(what + ": exited " + process.exitValue() + ":\n" + printed);
                }
                return printed;
            } finally {
                // mpirun ends its orteds when it gets SIGTERM; they and their ranks are its descendants, also
                // in the other namespaces (one PID namespace for all), so whatever is left gets SIGKILL.
                List<ProcessHandle> tree = process.descendants().toList();
                process.destroy();
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
                tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            }
        }

        /** Bytes host 1 has sent and received on the bridge (its veth end's counters), NaN if unreadable. */
        private double hostOneBytes() {
            Path statistics = Path.of("/sys/class/net", prefix + "v1", "statistics");
            try {
                return Double.parseDouble(
                                Files.readString(statistics.resolve("rx_bytes")).trim())
                        + Double.parseDouble(
                                Files.readString(statistics.resolve("tx_bytes")).trim());
            } catch (IOException | NumberFormatException e) {
                return Double.NaN;
            }
        }

        private void compile() throws IOException, InterruptedException {
            Path source = mpiSources.resolve("matmul_mpi.c");
            Path log = c.scratch().resolve(NAME + "-mpicc.log");
            // -ffp-contract=off: no fused multiply-add, so the sums round as Java's do and the digests match.
            ProcessBuilder builder = new ProcessBuilder(
                            "mpicc", "-O2", "-ffp-contract=off", "-std=c11", "-o", binary.toString(), source.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            runToEnd(builder, log, "mpicc " + source, timeoutSeconds);
            c.log().note(NAME, "compiled " + source + " with mpicc -O2 -ffp-contract=off");
        }

        private void draw() {
            c.plots()
                    .lines(
                            NAME,
                            "DF-Threads Fig. 3: blocked matmul, FastFlow-J time / OpenMPI time",
                            "hosts",
                            "FastFlow-J time / MPI time",
                            true,
                            true,
                            Plots.medians(c.log().points(NAME)),
                            Map.of("equal times", 1.0));
            c.plots()
                    .lines(
                            NAME + "-times",
                            "DF-Threads Fig. 3: blocked matmul, FastFlow-J and OpenMPI",
                            "hosts",
                            "seconds",
                            true,
                            true,
                            Plots.medians(c.log().points(NAME + "-times")),
                            Map.of());
        }
    }

    /** ff-bench/mpi, from the repository's root (figures.sh) or from ff-bench (the tests). */
    private static Path mpiSources() {
        for (Path candidate : List.of(Path.of("ff-bench", "mpi"), Path.of("mpi"))) {
            if (Files.isRegularFile(candidate.resolve("matmul_mpi.c"))
                    && Files.isExecutable(candidate.resolve("netns-rsh"))) {
                return candidate.toAbsolutePath();
            }
        }
        throw new IllegalStateException("ff-bench/mpi/matmul_mpi.c and netns-rsh not found from "
                + Path.of("").toAbsolutePath() + ": run from the repository's root");
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }
}
