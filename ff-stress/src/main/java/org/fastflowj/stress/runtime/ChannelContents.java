package org.fastflowj.stress.runtime;

import org.fastflowj.core.runtime.StressProbes.ChannelProbe;
import org.fastflowj.core.spi.Sentinel;

/** What a channel holds at the end of a test, as one outcome field. */
final class ChannelContents {
    private ChannelContents() {}

    /**
     * Drains {@code channel} in order: items as their values, end-of-stream as {@code E}, an empty
     * channel as {@code -}. Arbiter only (it polls, as the consumer).
     */
    static String drain(ChannelProbe channel) {
        StringBuilder sb = new StringBuilder();
        for (Object item = channel.poll(); item != null; item = channel.poll()) {
            sb.append(item == Sentinel.EOS ? "E" : String.valueOf(item));
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
