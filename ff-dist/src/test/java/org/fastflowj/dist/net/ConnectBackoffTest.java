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
    void shouldTryAtMostTwentyMillisecondsApartForTheFirstTwoSeconds() {
        ConnectBackoff backoff = new ConnectBackoff();
        long waitedMs = 0;
        int attempts = 0;
        while (waitedMs < ConnectBackoff.FAST_PERIOD_MS) {
            long wait = backoff.nextWaitMs();
            assertThat(wait).isBetween(ConnectBackoff.FIRST_MS, ConnectBackoff.FAST_MAX_MS);
            waitedMs += wait;
            attempts++;
        }

        // 5 + 10, then 20 ms apart: a peer listening at any moment of those 2 s is joined within 20 ms.
        assertThat(attempts).isEqualTo(2 + 100);
    }

    @Test
    void shouldSlowDownToAHundredMillisecondsForAPeerThatTakesLonger() {
        ConnectBackoff backoff = new ConnectBackoff();
        long waitedMs = 0;
        while (waitedMs < ConnectBackoff.FAST_PERIOD_MS) {
            waitedMs += backoff.nextWaitMs();
        }
        List<Long> later = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            later.add(backoff.nextWaitMs());
        }

        assertThat(later).containsExactly(40L, 80L, 100L, 100L, 100L);
    }
}
