package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ChannelBytesTest {
    /** Two channels whose queued counts and consumers the test sets. */
    private static final class Channels implements ChannelBytes.Queued {
        final int[] queued = new int[2];
        final boolean[] gone = new boolean[2];

        @Override
        public int runsQueued(int channel) {
            return gone[channel] ? 0 : queued[channel];
        }
    }

    private final Channels channels = new Channels();
    private final ChannelBytes bytes = new ChannelBytes(2);

    @Test
    void shouldDropTheOldestRunsAsTheConsumerTakesThem() {
        bytes.sent(0, 100);
        bytes.sent(0, 200);
        bytes.sent(0, 300);
        bytes.sent(1, 5);
        channels.queued[0] = 3;
        channels.queued[1] = 1;
        assertThat(bytes.refresh(channels)).isEqualTo(605);

        channels.queued[0] = 1; // the consumer took the 100 and the 200
        assertThat(bytes.refresh(channels)).isEqualTo(305);

        channels.queued[0] = 0;
        channels.queued[1] = 0;
        assertThat(bytes.refresh(channels)).isZero();
    }

    @Test
    void shouldCountWhatWasSentSinceTheLastRefresh() {
        bytes.sent(1, 10);
        channels.queued[1] = 1;
        bytes.refresh(channels);
        bytes.sent(1, 20);

        assertThat(bytes.total()).isEqualTo(30);
    }

    @Test
    void shouldForgetTheRunsOfAConsumerThatEnded() {
        bytes.sent(0, 1_000);
        channels.queued[0] = 1;
        channels.gone[0] = true; // its items stay in the queue, but nobody will take them

        assertThat(bytes.refresh(channels)).isZero();
    }

    @Test
    void shouldKeepTheOrderOfRunsWhenTheRingGrows() {
        for (int i = 1; i <= 50; i++) {
            bytes.sent(0, i);
        }
        channels.queued[0] = 20;
        bytes.refresh(channels); // the ring's start moves to 31
        for (int i = 51; i <= 200; i++) {
            bytes.sent(0, i); // grows past 64 runs, wrapping
        }
        channels.queued[0] = 3; // left: 198, 199, 200

        assertThat(bytes.refresh(channels)).isEqualTo(198 + 199 + 200);
    }
}
