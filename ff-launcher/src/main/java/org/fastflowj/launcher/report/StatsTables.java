package org.fastflowj.launcher.report;

import java.io.PrintWriter;
import java.util.List;
import org.fastflowj.core.RunStats;

/**
 * {@code --stats}: every group's final node table, as a one-process run prints it
 * ({@link RunStats#toTable()}), each line with the group's prefix, as the group's own output.
 */
public final class StatsTables {
    private StatsTables() {}

    public static void print(List<String> groups, GroupReports reports, PrintWriter out) {
        for (String group : groups) {
            String prefix = "[" + group + "] ";
            RunStats stats = reports.finalStats(group);
            if (stats == null) {
                out.println(prefix + "no statistics: the group did not report them (it did not run to its end)");
                continue;
            }
            out.println(prefix + "statistics of group " + group + ":");
            stats.toTable().lines().forEach(line -> out.println(prefix + line));
        }
        out.flush();
    }
}
