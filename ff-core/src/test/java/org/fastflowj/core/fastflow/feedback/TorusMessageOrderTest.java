package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Behaviour of FastFlow's tests/test_torus2.cpp: a wrapped pipeline (unbounded queues of 512) whose head sends
 * a big batch of messages of random size (4..31 sequence numbers each), a small batch per returning message
 * while batches remain, then EOS; every stage, and the head for what comes back, sees the sequence numbers in
 * order without a gap, and every message goes all the way round.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TorusMessageOrderTest {
    private static final long BIG_BATCH = 2048;
    private static final long SMALL_BATCH = 128;
    /** Scaled down from 10485760. */
    private static final long NUMTASKS = BIG_BATCH + 40 * SMALL_BATCH;

    private static final int MAX_SIZE = 32;
    private static final int MIN_SIZE = 4;

    /** Checks that message sizes are in range and that sequence numbers arrive in order. */
    abstract static class Checker extends Node<int[], int[]> {
        int counterIn;
        long messages;
        int inconsistent;

        void checkInput(int[] msg) {
            messages++;
            int size = msg[0];
            if (size < MIN_SIZE || size > MAX_SIZE) {
                inconsistent++;
                return;
            }
            for (int k = 1; k <= size; k++) {
                if (counterIn++ != msg[k]) {
                    inconsistent++;
                }
            }
        }
    }

    static final class Master extends Checker {
        private long next = 1; // the C++ rand-like generator's state
        private long numBatch = (NUMTASKS - BIG_BATCH) / SMALL_BATCH;
        private boolean eosSent;
        int counterOut;

        private double random() {
            next = next * 1103515245L + 12345L;
            return ((next >>> 16) & 0x7FFF) / 32768.0;
        }

        private int[] prepareMsg() {
            int size = (int) (random() * (MAX_SIZE - MIN_SIZE)) + MIN_SIZE;
            int[] msg = new int[size + 1];
            msg[0] = size;
            for (int k = 1; k <= size; k++) {
                msg[k] = counterOut++;
            }
            return msg;
        }

        @Override
        protected int[] svc(int[] task) {
            if (task == null) {
                for (long i = 0; i < BIG_BATCH; i++) {
                    sendOut(prepareMsg());
                }
                if (numBatch > 0) {
                    --numBatch; // as in the C++ test: the big batch uses up one small batch
                }
                return goOn();
            }
            checkInput(task);
            if (numBatch > 0) {
                for (long i = 0; i < SMALL_BATCH; i++) {
                    sendOut(prepareMsg());
                }
                --numBatch;
            } else if (!eosSent) {
                sendOut(eos());
                eosSent = true;
            }
            return goOn();
        }
    }

    static final class Stage extends Checker {
        @Override
        protected int[] svc(int[] task) {
            checkInput(task);
            return task;
        }
    }

    @ParameterizedTest
    @CsvSource({"2, BACKOFF", "7, BACKOFF", "7, BLOCKING"})
    void shouldPassEveryMessageRoundTheTorusInOrder(int nstages, WaitStrategy strategy) {
        Master master = new Master();
        List<Stage> stages = new ArrayList<>();
        Pipeline pipe = new Pipeline(master);
        for (int i = 1; i < nstages; i++) {
            Stage s = new Stage();
            stages.add(s);
            pipe.add(s);
        }
        pipe.wrapAround()
                .runAndWaitEnd(RunOptions.defaults()
                        .waitStrategy(strategy)
                        .queueCapacity(512)
                        .unboundedQueues(true));

        long messages = BIG_BATCH + ((NUMTASKS - BIG_BATCH) / SMALL_BATCH - 1) * SMALL_BATCH;
        assertThat(stages).allSatisfy(s -> {
            assertThat(s.messages).isEqualTo(messages);
            assertThat(s.inconsistent).isZero();
            assertThat(s.counterIn).isEqualTo(master.counterOut);
        });
        // after its EOS the head goes on checking what comes back, until the ring is empty
        assertThat(master.messages).isEqualTo(messages);
        assertThat(master.inconsistent).isZero();
        assertThat(master.counterIn).isEqualTo(master.counterOut);
        assertThat(master.numBatch).isZero();
    }
}
