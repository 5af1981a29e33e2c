package org.fastflowj.launcher.process;

import java.util.Arrays;
import java.util.List;

/**
 * The lines (ff-dist, on stderr) by which a group tells the launcher about groups the run may lose: a
 * group whose peers include a recoverable farm's worker groups names them at its start
 * ({@code DFF_LOSABLE: W1,W2}), and names a peer it lost when the run goes on without it
 * ({@code DFF_LOST: W2}). The launcher then shows that group as {@code lost} instead of stopping the run.
 */
final class RecoveryMarkers {
    /** Followed by the groups the run may lose, comma-separated. */
    static final String LOSABLE = "DFF_LOSABLE:";
    /** Followed by the group lost. */
    static final String LOST = "DFF_LOST:";

    private RecoveryMarkers() {}

    /** The groups a {@link #LOSABLE} line names. */
    static List<String> losable(String line) {
        String list = line.substring(LOSABLE.length()).strip();
        return list.isEmpty()
                ? List.of()
                : Arrays.stream(list.split(",")).map(String::strip).toList();
    }

    /** The group a {@link #LOST} line names. */
    static String lost(String line) {
        return line.substring(LOST.length()).strip();
    }
}
