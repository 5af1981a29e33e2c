package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test8.cpp: a three-stage pipeline with short queues (10) squares vectors 0..i-1 for i = 1..500 and the last stage prints the sum of all squares in svc_end. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ThreeStagePipelineTest {

    static final class First extends Node<Void, double[]> {
        private final int length;

        First(int length) {
            this.length = length;
        }

        @Override
        protected double[] svc(Void none) {
            for (int i = 1; i <= length; i++) {
                double[] t = new double[i];
                for (int j = 0; j < i; j++) {
                    t[j] = j;
                }
                sendOut(t);
            }
            return eos();
        }
    }

    static final class Second extends Node<double[], double[]> {
        @Override
        protected double[] svc(double[] t) {
            for (int j = 0; j < t.length; j++) {
                t[j] *= t[j];
            }
            return t;
        }
    }

    static final class Third extends Node<double[], Void> {
        double sum;
        int tasks;
        Double printedAtEnd;

        @Override
        protected Void svc(double[] t) {
            tasks++;
            for (double v : t) {
                sum += v;
            }
            return goOn();
        }

        @Override
        protected void svcEnd() {
            printedAtEnd = sum;
        }
    }

    @Test
    void shouldSumEverySquareOnceWithShortQueues() {
        Third third = new Third();
        new Pipeline(new First(500), new Second(), third)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(10));

        double expected = 0;
        for (int i = 1; i <= 500; i++) {
            for (int j = 0; j < i; j++) {
                expected += (double) j * j;
            }
        }
        assertThat(third.tasks).isEqualTo(500);
        assertThat(third.printedAtEnd).isEqualTo(expected);
    }
}
