package org.fastflowj.examples.matmul;

import java.lang.management.ManagementFactory;

/** The CPU time this process has used, all threads, as the energy proxy of a product's figures. */
final class ProcessCpu {
    private ProcessCpu() {}

    /** CPU nanoseconds used so far by this process, or 0 where the platform does not say. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
