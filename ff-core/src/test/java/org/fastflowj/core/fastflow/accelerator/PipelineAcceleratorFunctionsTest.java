package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_pipe.cpp: a two-stage pipeline accelerator (F = i+1, then G = 2i) fed the whole stream before any load gives exactly G(F(i)) for each task, in order. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PipelineAcceleratorFunctionsTest {

    @Test
    void shouldComputeGOfFForEveryTaskOffloadedBeforeAnyResultIsLoaded() {
        long streamLength = 1000;
        Pipeline pipe = new Pipeline(Node.<Long, Long>of(i -> i + 1), Node.<Long, Long>of(i -> i * 2));

        Accelerator<Long, Long> acc = Accelerator.start(pipe);
        for (long i = 0; i < streamLength; i++) {
            acc.offload(i);
        }
        acc.endInput();
        for (long i = 0; i < streamLength; i++) { // exactly streamLength loads, none of them the end
            Long result = acc.loadResult();
            assertThat(result).isNotNull().isEqualTo((i + 1) * 2);
        }
        assertThat(acc.loadResult()).isNull();
        acc.waitEnd();
    }
}
