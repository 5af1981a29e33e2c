package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Processing time (windows and timers on the wall clock) and idle inputs. */
@Timeout(60)
class StreamTimeTest {
    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 3})
    void processingTimeWindowsCountEveryRecordOnceAndFireWhileTheStreamRuns(int parallelism) {
        int records = 1_200;
        AtomicLong lastMadeAt = new AtomicLong();
        List<Long> resultArrivals = Collections.synchronizedList(new ArrayList<>());
        List<WindowResult<Long, Long>> results = Collections.synchronizedList(new ArrayList<>());
        StreamJob job = StreamJob.named("processing-time");
        job.source(Sources.generator(records, 3_000, i -> {
                    lastMadeAt.set(System.nanoTime());
                    return i;
                }))
                .keyBy(i -> i % 4)
                .window(Windows.tumbling(Duration.ofMillis(50)).onProcessingTime())
                .aggregate(Aggregates.counting())
                .parallelism(parallelism)
                .sink(Sinks.forEach(r -> {
                    resultArrivals.add(System.nanoTime());
                    results.add(r);
                }));
        job.run();
        assertThat(results.stream().mapToLong(WindowResult::value).sum()).isEqualTo(records);
        for (WindowResult<Long, Long> r : results) {
            assertThat(r.end() - r.start()).isEqualTo(50);
            assertThat(r.start() % 50).isZero();
        }
        // The generator takes ~0.4 s: windows fired on the clock before its last record, not only at the end.
        assertThat(resultArrivals.stream().filter(t -> t < lastMadeAt.get())).isNotEmpty();
    }

    @Test
    void processingTimersFireOnTheClockAndThoseLeftFireAtTheEnd() {
        List<String> fired = Collections.synchronizedList(new ArrayList<>());
        AtomicLong lastMadeAt = new AtomicLong();
        List<Long> firedAt = Collections.synchronizedList(new ArrayList<>());
        StreamJob job = StreamJob.named("processing-timers");
        job.source(Sources.generator(600, 2_000, i -> {
                    lastMadeAt.set(System.nanoTime());
                    return i;
                }))
                .keyBy(i -> i % 3)
                .process(() -> new KeyedProcessFunction<Long, Long, String>() {
                    private ValueState<Boolean> registered;

                    @Override
                    public void open(KeyedStates states) {
                        registered = states.value("registered");
                    }

                    @Override
                    public void processElement(Long value, Context<Long, String> context) {
                        if (registered.value() == null) {
                            registered.update(true);
                            long now = context.currentProcessingTime();
                            context.registerProcessingTimeTimer(now + 20);
                            context.registerProcessingTimeTimer(now + 20); // one per key and time
                            context.registerProcessingTimeTimer(now + 3_600_000);
                            context.registerProcessingTimeTimer(now + 7_200_000);
                            context.deleteProcessingTimeTimer(now + 7_200_000);
                        }
                    }

                    @Override
                    public void onProcessingTimer(long time, Context<Long, String> context) {
                        boolean soon = time - System.currentTimeMillis() < 1_000_000;
                        if (soon) {
                            firedAt.add(System.nanoTime());
                        }
                        context.emit(context.key() + (soon ? " soon" : " at the end"));
                    }
                })
                .sink(Sinks.forEach(fired::add));
        job.run();
        assertThat(fired)
                .containsExactlyInAnyOrder(
                        "0 soon", "1 soon", "2 soon", "0 at the end", "1 at the end", "2 at the end");
        assertThat(firedAt.stream().filter(t -> t < lastMadeAt.get())).isNotEmpty();
    }

    /**
     * A source that sends one record, then nothing until {@code release} opens (or 20 s pass), then ends
     * and notes when.
     */
    static Source<Long> quietAfterOneRecord(CountDownLatch release, AtomicLong endedAt) {
        return new Source<>() {
            @Override
            public String name() {
                return "quiet";
            }

            @Override
            public SourceReader<Long> open(int instance, int instances) {
                long openedAt = System.nanoTime();
                return new SourceReader<>() {
                    private boolean sent;

                    @Override
                    public boolean emit(Consumer<? super Long> out) throws InterruptedException {
                        if (!sent) {
                            sent = true;
                            out.accept(0L);
                            return true;
                        }
                        boolean released = release.await(5, TimeUnit.MILLISECONDS);
                        if (released || System.nanoTime() - openedAt > TimeUnit.SECONDS.toNanos(20)) {
                            endedAt.set(System.nanoTime());
                            return false;
                        }
                        return true;
                    }
                };
            }
        };
    }

    /**
     * A busy stream of times 0..4999 ms unioned with a quiet one that ends when the first window result
     * arrives or when {@code holdMillis} passed: whether that first result came before the quiet input ended.
     */
    static boolean firstWindowFiredBeforeTheQuietInputEnded(Watermarks quietMarks, long holdMillis) {
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong quietEndedAt = new AtomicLong();
        AtomicLong firstResultAt = new AtomicLong();
        StreamJob job = StreamJob.named("idle");
        DataStream<Long> busy = job.source(Sources.generator(5_000, 0, i -> i))
                .name("busy")
                .withTimestamps(i -> i, Watermarks.ascending());
        DataStream<Long> quiet = job.source(quietAfterOneRecord(release, quietEndedAt))
                .name("quiet")
                .withTimestamps(i -> i, quietMarks);
        List<WindowResult<Long, Long>> results = Collections.synchronizedList(new ArrayList<>());
        busy.union(quiet)
                .keyBy(i -> 0L)
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(Aggregates.counting())
                .sink(Sinks.forEach(r -> {
                    firstResultAt.compareAndSet(0, System.nanoTime());
                    results.add(r);
                    release.countDown();
                }));
        Thread hold = new Thread(() -> {
            try {
                Thread.sleep(holdMillis);
                release.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        hold.setDaemon(true);
        hold.start();
        try {
            job.run();
        } finally {
            hold.interrupt();
        }
        assertThat(results.stream().mapToLong(WindowResult::value).sum()).isEqualTo(5_001);
        return firstResultAt.get() < quietEndedAt.get();
    }

    @Test
    void anIdleInputStopsHoldingTheWatermarkBackAfterItsTimeout() {
        assertThat(firstWindowFiredBeforeTheQuietInputEnded(
                        Watermarks.ascending().withIdleness(Duration.ofMillis(50)), 30_000))
                .isTrue();
    }

    @Test
    void withoutIdlenessAQuietInputHoldsEveryWindowBackUntilItEnds() {
        assertThat(firstWindowFiredBeforeTheQuietInputEnded(Watermarks.ascending(), 300))
                .isFalse();
    }

    @Test
    void processingTimeRefusesWhatHasNoMeaningThere() {
        assertThatThrownBy(() -> Windows.count(3).onProcessingTime())
                .hasMessageContaining("count windows take no time");
        StreamJob job = StreamJob.named("lateness");
        assertThatThrownBy(() -> job.source(Sources.of(List.of(1L)))
                        .keyBy(i -> i)
                        .window(Windows.tumbling(Duration.ofSeconds(1)).onProcessingTime())
                        .allowedLateness(Duration.ofSeconds(1)))
                .hasMessageContaining("needs an event-time window");
        assertThatThrownBy(() -> Watermarks.ascending().withIdleness(Duration.ZERO))
                .hasMessageContaining("at least 1 ms");
    }
}
