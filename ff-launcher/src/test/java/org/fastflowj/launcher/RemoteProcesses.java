package org.fastflowj.launcher;

import java.util.List;

/** Test support: processes on this machine found by their command line, as a remote group's are. */
final class RemoteProcesses {
    private RemoteProcesses() {}

    static List<ProcessHandle> matching(String commandLinePart) {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains(commandLinePart))
                        .orElse(false))
                .toList();
    }

    static void kill(String commandLinePart) {
        matching(commandLinePart).forEach(ProcessHandle::destroyForcibly);
    }
}
