package org.fastflowj.launcher.apps;

import java.util.List;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;

/**
 * A group that needs nothing but the JDK and {@link ControlLine} (a small jar: the launcher caches only for
 * jar commands): answers the launcher's group check with A, B and C, sealed as ff-dist does, and prints
 * its arguments when run as a group.
 */
public final class CheckedGroup {
    private CheckedGroup() {}

    public static void main(String[] args) {
        // a compile-time constant: the jar needs no ff-dist class at run time
        if (List.of(args).contains(DFF.PRINT_GROUPS_OPTION)) {
            ControlLine.emit(System.out, "DFF_GROUPS: A,B,C");
            return;
        }
        System.out.println("group with " + String.join(" ", args));
    }
}
