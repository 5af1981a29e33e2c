package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ConnectBackoffTest {
    @Test
    void shouldStartAtFiveMillisecondsAndDoubleUpToTwenty() {
        ConnectBackoff backoff = new ConnectBackoff();
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waits.add(backoff.nextWaitMs());
        }

        assertThat(waits).containsExactly(5L, 10L, 20L, 20L, 20L, 20L);
    }

    @Test
    void shouldNeverWaitLongerThanTheCapHoweverLongThePeerTakes() {
        ConnectBackoff backoff = new ConnectBackoff();
        long waitedMs = 0;
        int attempts = 0;
        while (waitedMs < 1_000) {
            long wait = backoff.nextWaitMs();
            assertThat(wait).isBetween(ConnectBackoff.FIRST_MS, ConnectBackoff.MAX_MS);
            waitedMs += wait;
            attempts++;
        }

        // A peer that listens one second late is tried about fifty times, so joined within 20 ms.
        assertThat(attempts).isBetween(50, 52);
    }
}
