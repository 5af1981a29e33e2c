package org.fastflowj.patterns.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class OutstandingBoundTest {
    /** Waits until {@code thread} is parked or ended (it never spins: it can only be parked). */
    private static void awaitParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.isAlive()) {
            assertThat(System.nanoTime()).as("thread parked in time").isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    @Test
    void shouldParkAtTheLimitAndResumeOnlyOnceHalfIsFree() throws Exception {
        OutstandingBound bound = new OutstandingBound(4);
        AtomicInteger acquired = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Thread generator = new Thread(() -> {
            try {
                for (int i = 0; i < 5; i++) {
                    bound.acquire();
                    acquired.incrementAndGet();
                }
                done.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        generator.start();
        try {
            awaitParked(generator);
            assertThat(acquired).hasValue(4); // the fifth waits

            bound.release(); // 3 outstanding: above half of 4, so it goes on waiting
            awaitParked(generator);
            assertThat(acquired).hasValue(4);

            bound.release(); // 2 outstanding: half is free
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(acquired).hasValue(5);
        } finally {
            generator.interrupt();
            generator.join(10_000);
        }
    }

    @Test
    void shouldThrowWhenInterruptedWhileParked() throws Exception {
        OutstandingBound bound = new OutstandingBound(1);
        bound.acquire();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread generator = new Thread(() -> {
            try {
                bound.acquire();
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        generator.start();
        awaitParked(generator);
        generator.interrupt();
        generator.join(10_000);

        assertThat(generator.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class).hasMessageContaining("cancelled");
    }

    @Test
    void shouldNeverLoseAWakeUpBetweenOneAcquirerAndOneReleaser() throws Exception {
        int limit = 2, rounds = 200_000;
        OutstandingBound bound = new OutstandingBound(limit);
        Semaphore handedOver = new Semaphore(0); // test plumbing only
        Thread releaser = new Thread(() -> {
            for (int i = 0; i < rounds; i++) {
                handedOver.acquireUninterruptibly();
                bound.release();
            }
        });
        releaser.setDaemon(true); // never outlives a failed test
        releaser.start();
        try {
            for (int i = 0; i < rounds; i++) {
                bound.acquire(); // would hang (and time out) on a lost wake-up
                handedOver.release();
            }
        } finally {
            releaser.join(10_000);
        }
        assertThat(releaser.isAlive()).isFalse();
    }

    @Test
    void shouldNeverLoseAWakeUpOrACreditWithSeveralReleasers() throws Exception {
        int limit = 4, releasers = 3, perReleaser = 50_000, rounds = releasers * perReleaser;
        OutstandingBound bound = new OutstandingBound(limit, releasers);
        Semaphore[] handedOver = new Semaphore[releasers]; // test plumbing only
        Thread[] threads = new Thread[releasers];
        for (int k = 0; k < releasers; k++) {
            int slot = k;
            handedOver[k] = new Semaphore(0);
            threads[k] = new Thread(() -> {
                for (int i = 0; i < perReleaser; i++) {
                    handedOver[slot].acquireUninterruptibly();
                    bound.release(slot);
                }
            });
            threads[k].setDaemon(true); // never outlives a failed test
            threads[k].start();
        }
        int maxSeen = 0;
        try {
            for (int i = 0; i < rounds; i++) {
                bound.acquire(); // would hang (and time out) on a lost wake-up
                maxSeen = Math.max(maxSeen, bound.outstanding());
                handedOver[i % releasers].release();
            }
        } finally {
            for (Thread t : threads) {
                t.join(10_000);
            }
        }
        for (Thread t : threads) {
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(maxSeen).isLessThanOrEqualTo(limit);
        assertThat(bound.outstanding()).isZero();
    }
}
