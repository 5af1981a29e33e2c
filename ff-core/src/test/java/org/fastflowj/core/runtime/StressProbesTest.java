package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.runtime.StressProbes.ChannelProbe;
import org.fastflowj.core.runtime.StressProbes.DispatchProbe;
import org.fastflowj.core.runtime.StressProbes.RunnerProbe;
import org.fastflowj.core.runtime.channel.Parker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The probes ff-stress races, driven on one thread through their public calls only: each is wired as the
 * executor wires the engine's objects, so a jcstress outcome is the engine's. ({@code mvn verify} only
 * compiles the jcstress tests: this is what checks the probes on every build.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StressProbesTest {
    @Test
    void shouldWakeAConsumerWaitingOnTheChannelAnItemWentTo() {
        RunnerProbe consumer = StressProbes.runner();
        ChannelProbe channel = StressProbes.channel(4, StressProbes.runner(), consumer);

        consumer.waitTarget(channel);
        consumer.announce(StressProbes.WAIT_INPUT);
        assertThat(channel.hasItems()).isFalse();
        assertThat(channel.offer("item")).isTrue();

        assertThat(channel.consumerState()).isEqualTo(StressProbes.WAIT_INPUT);
        assertThat(channel.worthWaking()).as("a wake batch of 1").isTrue();
        channel.wakeConsumerForItem();
        assertThat(consumer.state()).isEqualTo(Parker.RUNNING);
        assertThat(channel.hasItems()).isTrue();
    }

    @Test
    void shouldLeaveAConsumerWaitingOnAnotherChannelAsleep() {
        RunnerProbe consumer = StressProbes.runner();
        ChannelProbe channel = StressProbes.channel(4, StressProbes.runner(), consumer);
        ChannelProbe other = StressProbes.channel(4, StressProbes.runner(), consumer);

        consumer.waitTarget(other);
        consumer.announce(StressProbes.WAIT_INPUT);
        channel.offer("item");
        channel.wakeConsumerForItem();

        assertThat(consumer.state()).isEqualTo(StressProbes.WAIT_INPUT);
    }

    @Test
    void shouldWakeAProducerWaitingForRoomOnlyAtTheLowWaterMark() {
        RunnerProbe producer = StressProbes.runner();
        ChannelProbe channel = StressProbes.channel(2, producer, StressProbes.runner());
        channel.offer(0);
        channel.offer(1);
        assertThat(channel.offer(2)).as("an offer beyond the limit").isFalse();

        producer.waitTarget(channel);
        producer.announce(StressProbes.WAIT_OUTPUT);
        assertThat(channel.producerMayResume()).isFalse();
        assertThat(channel.consumerGone()).isFalse();
        assertThat(channel.poll()).isEqualTo(0);

        assertThat(channel.producerMayResume()).isTrue();
        assertThat(channel.producerState()).isEqualTo(StressProbes.WAIT_OUTPUT);
        channel.wakeProducerForRoom();
        assertThat(producer.state()).isEqualTo(Parker.RUNNING);
    }

    @Test
    void shouldHandStagedItemsOutRoundRobinToSlotsWithRoom() {
        RunnerProbe producer = StressProbes.runner();
        RunnerProbe a = StressProbes.runner();
        RunnerProbe b = StressProbes.runner();
        ChannelProbe slotA = StressProbes.channel(1, producer, a);
        ChannelProbe slotB = StressProbes.channel(1, producer, b);
        DispatchProbe dispatch = StressProbes.dispatch(producer, 2, slotA, slotB);
        for (int i = 0; i < 4; i++) {
            assertThat(dispatch.staging().offer(i)).isTrue();
        }

        assertThat(dispatch.run(null)).isTrue();
        assertThat(dispatch.hasWork())
                .as("2 and 3 still staged: the slots hold one item each")
                .isTrue();
        assertThat(slotA.poll()).isEqualTo(0);
        assertThat(slotB.poll()).isEqualTo(1);
        assertThat(dispatch.run(a)).isTrue();

        assertThat(slotA.poll()).isEqualTo(2);
        assertThat(slotB.poll()).isEqualTo(3);
        assertThat(dispatch.hasWork()).isFalse();
        assertThat(dispatch.role()).as("the role given back").isZero();
    }

    @Test
    void shouldHandOutAtOnceAndWakeAConsumerThatWaits() {
        RunnerProbe producer = StressProbes.runner();
        RunnerProbe a = StressProbes.runner();
        ChannelProbe slotA = StressProbes.channel(1, producer, a);
        DispatchProbe dispatch = StressProbes.dispatch(producer, 2, slotA);
        a.announce(StressProbes.WAIT_INPUT);

        dispatch.staging().offer("item");
        dispatch.afterSubmit();

        assertThat(slotA.poll()).isEqualTo("item");
        assertThat(a.state()).isEqualTo(Parker.RUNNING);
        assertThat(slotA.producerDone()).isFalse();
    }
}
