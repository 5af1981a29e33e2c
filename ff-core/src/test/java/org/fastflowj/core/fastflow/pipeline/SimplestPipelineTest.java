package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/simplest.cpp: a one-stage pipeline whose source says hello in svc_init, returns GO_ON ten times, then EOS, then says goodbye in svc_end. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SimplestPipelineTest {

    static final class Stage extends Node<Void, Void> {
        final List<String> printed = new ArrayList<>();
        int calls;

        @Override
        protected void svcInit() {
            printed.add("Hello");
        }

        @Override
        protected Void svc(Void none) {
            calls++;
            if (calls > 10) {
                return eos();
            }
            printed.add("Hi!");
            return goOn();
        }

        @Override
        protected void svcEnd() {
            printed.add("Goodbye");
        }
    }

    @Test
    void shouldCallSourceUntilItReturnsEosThoughItNeverEmits() {
        Stage stage = new Stage();
        new Pipeline(stage).runAndWaitEnd();

        assertThat(stage.calls).isEqualTo(11);
        List<String> expected = new ArrayList<>();
        expected.add("Hello");
        for (int i = 0; i < 10; i++) {
            expected.add("Hi!");
        }
        expected.add("Goodbye");
        assertThat(stage.printed).containsExactlyElementsOf(expected);
    }
}
