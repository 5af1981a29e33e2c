package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_torus.cpp: a wrapped seven-stage pipeline whose head sends a big batch, a
 * small batch per returning item while batches remain, then EOS; every stage sees every item exactly once.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WrapAroundTorusTest {

    static final long TOTAL = 16_384;
    static final long BIG = 1024;
    static final long SMALL = 256;

    static final class Master extends Node<Long, Long> {
        long batches = (TOTAL - BIG) / SMALL;
        long back;
        boolean eosSent;

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                for (long i = 0; i < BIG; i++) {
                    sendOut(i + 1);
                }
                return goOn();
            }
            back++;
            if (batches > 0) {
                for (long i = 0; i < SMALL; i++) {
                    sendOut(i + 1);
                }
                batches--;
            } else if (!eosSent) {
                sendOut(eos());
                eosSent = true;
            }
            return goOn();
        }
    }

    static final class Stage extends Node<Long, Long> {
        long seen;

        @Override
        protected Long svc(Long task) {
            seen++;
            return task;
        }
    }

    @Test
    void shouldPassEveryItemThroughEveryStageBeforeTheEnd() {
        Master master = new Master();
        List<Stage> stages = new ArrayList<>();
        Pipeline pipe = new Pipeline(master);
        for (int i = 1; i < 7; i++) {
            Stage s = new Stage();
            stages.add(s);
            pipe.add(s);
        }
        pipe.wrapAround().runAndWaitEnd();

        assertThat(stages).allSatisfy(s -> assertThat(s.seen).isEqualTo(TOTAL));
        assertThat(master.batches).isZero();
        // As in FastFlow, the head's sendOut(eos()) sends EOS round the ring and the head keeps reading
        // fed-back items until the last stage ended: it reads all TOTAL items back.
        assertThat(master.back).isEqualTo(TOTAL);
    }
}
