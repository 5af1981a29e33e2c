package org.fastflowj.dist;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.RestartStrategy;

/**
 * The {@code checkpoints} object of a config: where every group keeps its checkpoints, how often they are
 * taken, and how often the launcher starts every group again from the newest complete one after a failure.
 *
 * <p>The directory is resolved against the config file's folder (against the working directory for {@link
 * DffConfig#parse}) and is not opened while the config is read: every group must see the same folder, a
 * shared file system for groups on several machines.
 *
 * <p>Threading: immutable, safe to share.
 *
 * @param directory the folder the groups' checkpoints go to
 * @param interval the time between the starts of two checkpoints
 * @param mode what a checkpoint guarantees of the state it holds
 * @param retained how many complete checkpoints are kept (at least 2: the newest may be incomplete when a
 *     failure comes)
 * @param fullEvery one checkpoint in this many holds the whole state of a node that can write its changes
 *     only (incremental checkpoints; 1, the default: every one whole)
 * @param restart how often the launcher restarts the run after a group failed
 */
public record CheckpointsConfig(
        Path directory, Duration interval, CheckpointMode mode, int retained, int fullEvery, Restart restart) {
    public CheckpointsConfig {
        if (fullEvery < 1) {
            throw new IllegalArgumentException("fullEvery must be >= 1, got " + fullEvery);
        }
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(restart, "restart");
    }

    /** The restarts as ff-core's strategy: none for 0 attempts, a failure rate with a window, else fixed. */
    public RestartStrategy restartStrategy() {
        return restart.strategy();
    }

    /**
     * The {@code restart} object of {@code checkpoints}, as written: the launcher says its limits in words.
     *
     * @param attempts the restarts allowed in the whole run, or within {@code failureRateWindow} if given
     * @param delay the wait between a failure and the restart
     * @param failureRateWindow the window the attempts are counted in (Flink's failure-rate strategy), or
     *     empty to count them over the whole run
     * @param spareHosts where the launcher restarts the groups of a host it finds lost, first one first;
     *     no group of the config starts on any of them
     */
    public record Restart(
            int attempts, Duration delay, Optional<Duration> failureRateWindow, List<SpareHost> spareHosts) {
        public Restart {
            if (attempts < 0) {
                throw new IllegalArgumentException("restart attempts must be >= 0, got " + attempts);
            }
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(failureRateWindow, "failureRateWindow");
            spareHosts = List.copyOf(spareHosts);
        }

        /** Restarts without spare hosts: every group restarts on its own host. */
        public Restart(int attempts, Duration delay, Optional<Duration> failureRateWindow) {
            this(attempts, delay, failureRateWindow, List.of());
        }

        /** ff-core's strategy for these settings. */
        public RestartStrategy strategy() {
            if (attempts == 0) {
                return RestartStrategy.none();
            }
            return failureRateWindow
                    .map(window -> RestartStrategy.failureRate(attempts, window, delay))
                    .orElseGet(() -> RestartStrategy.fixedDelay(attempts, delay));
        }
    }

    /**
     * One entry of {@code checkpoints.restart.spareHosts}: a machine or {@code netns:NAME}, as a group's
     * {@code host}, and the address the groups moved there listen on, each on its own port.
     *
     * @param host where the launcher starts a moved group, as a group's {@code host} key
     * @param address the host part of a moved group's endpoint there: the {@code address} key, else the
     *     host without {@code user@}
     */
    public record SpareHost(String host, String address) {
        public SpareHost {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(address, "address");
        }

        /** The endpoint of a group moved here that listened on {@code port}: {@code address:port}. */
        public String endpoint(int port) {
            return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
        }
    }
}
