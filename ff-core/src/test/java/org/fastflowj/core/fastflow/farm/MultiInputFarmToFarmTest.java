package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Identity;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.fastflowj.core.testing.FfTestNodes.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_multi_input.cpp: a collector-less farm feeding a second farm, each task reaching one worker once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiInputFarmToFarmTest {

    @Test
    void shouldDeliverEveryTaskOfTheFirstFarmToExactlyOneWorkerOfTheSecond() {
        int workers = 3;
        int tasks = 1000;
        Farm first = Farm.of(workers, Identity::new).emitter(new Range(10, 10 + tasks - 1));
        List<Record> seconds = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            seconds.add(new Record());
        }
        new Pipeline(first, Farm.of(seconds)).runAndWaitEnd();

        List<Long> all = new ArrayList<>();
        for (Record w : seconds) {
            all.addAll(w.items);
            assertThat(w.ended)
                    .as("svcEnd of every second-farm worker ran (after its EOS)")
                    .isTrue();
        }
        assertThat(all)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(10, 10 + tasks).boxed().toList());
        assertThat(seconds).extracting(Record::id).containsExactly(0, 1, 2);
    }
}
