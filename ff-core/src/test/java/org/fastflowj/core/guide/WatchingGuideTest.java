package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: typed wiring and watching a run (docs/building-blocks.md). */
@Timeout(60)
class WatchingGuideTest {
    record Reading(String sensor, double value) {}

    static final class Sensors extends Node<Void, Reading> {
        private int left = 100;

        @Override
        protected Reading svc(Void none) {
            return left-- > 0 ? new Reading("s" + left % 4, left) : eos();
        }
    }

    /** A sink that holds the run open until the test has looked at it. */
    static final class Held extends Node<Reading, Void> {
        final CountDownLatch seen = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        protected Void svc(Reading r) throws InterruptedException {
            seen.countDown();
            release.await(30, TimeUnit.SECONDS);
            return goOn();
        }
    }

    @Test
    void typedWiring() {
        // tag::typed[]
        Node<String, Integer> parse = Node.of(String.class, Integer.class, Integer::parseInt);
        Pipeline wrong = new Pipeline(new Sensors(), parse, Node.<Integer>sink(System.out::println));

        assertThatThrownBy(wrong::run) // before any thread starts
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("pipe1 stage 0 (node org.fastflowj.core.guide.WatchingGuideTest$Sensors)"
                        + " emits org.fastflowj.core.guide.WatchingGuideTest$Reading, but pipe1 stage 1"
                        + " (node Node.of(String -> Integer, ")
                .hasMessageContaining("takes java.lang.String");
        // end::typed[]
    }

    @Test
    void metricsEndpoint() throws Exception {
        Held held = new Held();
        Pipeline pipe = new Pipeline(new Sensors(), held);
        HttpClient client = HttpClient.newHttpClient();
        try {
            // tag::metrics[]
            pipe.run(RunOptions.defaults().ui(0).jmx(true)); // 0: any free port
            URI metrics = URI.create("http://localhost:" + pipe.uiPort() + "/metrics");
            // end::metrics[]
            assertThat(held.seen.await(30, TimeUnit.SECONDS)).isTrue();
            HttpRequest request = HttpRequest.newBuilder(metrics)
                    .timeout(Duration.ofSeconds(10))
                    .build();
            String body =
                    client.send(request, HttpResponse.BodyHandlers.ofString()).body();
            assertThat(body).contains("fastflowj_node_items_in_total{node=\"ff-pipe1-stage1\"} 1\n");
        } finally {
            held.release.countDown();
        }
        pipe.waitEnd();
    }
}
