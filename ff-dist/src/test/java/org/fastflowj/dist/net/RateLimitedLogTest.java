package org.fastflowj.dist.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

@Timeout(30)
class RateLimitedLogTest {
    @Test
    void shouldWriteOneLinePerIntervalAndCountTheOthers() {
        RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), 1, TimeUnit.HOURS);

        for (int i = 0; i < 1_000; i++) {
            log.warn("refused connection " + i);
        }

        assertThat(log.suppressedCount()).isEqualTo(999);
    }

    @Test
    void shouldWriteAgainOnceTheIntervalPassedAndResetTheCount() throws Exception {
        RateLimitedLog log =
                new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), 1, TimeUnit.MILLISECONDS);
        log.warn("first");
        log.warn("suppressed, most likely");
        Thread.sleep(5); // the interval passing is the behaviour under test

        log.warn("written, with the count of the suppressed one");

        assertThat(log.suppressedCount()).isZero();
    }
}
