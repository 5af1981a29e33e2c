package org.fastflowj.dist;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Netty defaults ff-dist changes for a group's process, each unless the application set it already: they
 * are read once, when Netty's classes initialise, so {@link DFF#init} (or binding a group's settings,
 * {@link DFF.Settings#bind()}) sets them before any link exists.
 *
 * <ul>
 *   <li>{@value #JFR_PROPERTY} {@code false}: Netty's buffer allocator emits JDK Flight Recorder events
 *       when JFR is available, and the first one makes the JDK load JFR's whole event metadata: CPU time
 *       every group would spend on the way to its first connection, for events no one records.
 *       A recording that wants Netty's allocator events sets it to {@code true}.
 *   <li>{@value #MACHINE_ID_PROPERTY}: 8 random bytes per process. Netty makes every channel's id from a
 *       machine id, by default a hardware address of the host; a group in a fresh network namespace has only
 *       loopback, and Netty then warns on stderr ({@code Failed to find a usable hardware address}) and
 *       takes random bytes anyway. The ids only tell channels apart in logs.
 * </ul>
 *
 * <p>Threading: called on the thread that selects a group, before the group's other threads exist.
 */
final class NettyDefaults {
    static final String JFR_PROPERTY = "io.netty.jfr.enabled";
    static final String MACHINE_ID_PROPERTY = "io.netty.machineId";

    private NettyDefaults() {}

    /** Sets each default the application did not set. */
    static void apply() {
        if (System.getProperty(JFR_PROPERTY) == null) {
            System.setProperty(JFR_PROPERTY, "false");
        }
        if (System.getProperty(MACHINE_ID_PROPERTY) == null) {
            System.setProperty(MACHINE_ID_PROPERTY, randomMachineId());
        }
    }

    /** An EUI-64 as Netty parses it ({@code 0a:1b:...}, 8 bytes), locally administered and unicast. */
    static String randomMachineId() {
        byte[] id = new byte[8];
        ThreadLocalRandom.current().nextBytes(id);
        id[0] = (byte) ((id[0] | 0x02) & ~0x01);
        StringBuilder text = new StringBuilder(23);
        for (byte b : id) {
            if (text.length() > 0) {
                text.append(':');
            }
            text.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return text.toString();
    }
}
