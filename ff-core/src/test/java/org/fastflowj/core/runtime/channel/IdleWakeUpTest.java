package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threads that idled long enough to park for long (their parks grow while nothing comes) still take
 * every item that follows, in order: the producer wakes a long-parked consumer for a single item. What
 * this costs and how fast it is, ff-bench's {@code IdleCost} measures; here only what arrives counts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleWakeUpTest {
    /** Long enough for every park to grow past the first (a long park is then announced). */
    private static final long IDLE_MILLIS = 300;

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldDeliverEveryItemAfterTheSourceIdledThroughSixThreads(WaitStrategy strategy) {
        List<Integer> received = new ArrayList<>();
        Node<Void, Integer> source = new Node<>() {
            private int next;

            @Override
            protected Integer svc(Void none) {
                if (next == 3) {
                    return eos();
                }
                pause(IDLE_MILLIS); // each item comes after an idle spell, one by one: no batch to wake for
                return next++;
            }
        };
        List<BuildingBlock> stages = new ArrayList<>();
        stages.add(source);
        for (int i = 0; i < 4; i++) {
            stages.add(Node.<Integer, Integer>of(x -> x + 1));
        }
        stages.add(new Node<Integer, Void>() {
            @Override
            protected Void svc(Integer item) {
                received.add(item); // read after waitEnd, which orders this thread's writes before it
                return goOn();
            }
        });
        Pipeline pipeline = new Pipeline(stages.toArray(new BuildingBlock[0]));
        pipeline.run(RunOptions.defaults().waitStrategy(strategy));
        pipeline.waitEnd();
        assertThat(received).containsExactly(4, 5, 6);
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldHandAResultToACallerThatWaitedThroughAnIdleBlock(WaitStrategy strategy) {
        try (Accelerator<Integer, Integer> accelerator = Accelerator.start(
                Node.<Integer, Integer>of(x -> x * 2), RunOptions.defaults().waitStrategy(strategy))) {
            for (int round = 1; round <= 3; round++) {
                pause(IDLE_MILLIS); // the block's input stage parks long meanwhile
                accelerator.offload(round);
                assertThat(accelerator.loadResult()).isEqualTo(round * 2); // the caller parks for it
            }
            accelerator.endInput();
            assertThat(accelerator.loadResult()).isNull();
        }
    }

    @Test
    void shouldGrowParksUpToTheCapAndStartOverOnWork() {
        IdleStrategy idle = new IdleStrategy(new IdlePolicy(0, 0, 1_000, 1, false));
        assertThat(idle.nextStepParks()).isTrue();
        assertThat(idle.longPark()).isFalse();
        for (int i = 0; i < 40; i++) {
            idle.parked();
        }
        assertThat(idle.parkNanos()).isEqualTo(IdlePolicy.MAX_PARK_NANOS);
        assertThat(idle.longPark()).isTrue();
        idle.reset();
        assertThat(idle.parkNanos()).isEqualTo(1_000);
    }

    @Test
    void shouldNeverParkWhenBusySpinning() {
        IdleStrategy idle = new IdleStrategy(IdlePolicy.of(WaitStrategy.BUSY_SPIN, true));
        for (int i = 0; i < 100_000; i++) {
            assertThat(idle.nextStepParks()).isFalse();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
