package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.DFF;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The test mode: a one-process run sends every item through the serializer, so a type that cannot cross
 * groups fails in a unit test, not on a cluster.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SerializationCheckTest {
    /** Not registered, not in an allowed package. */
    static final class Secretive {
        final int value;

        Secretive(int value) {
            this.value = value;
        }
    }

    record Point(int x, int y) {}

    @AfterEach
    void reset() {
        DFF.reset();
    }

    @Test
    void shouldFailAOneProcessRunWhoseItemsCannotCrossGroups() {
        DFF.checkSerialization(true);
        Pipeline program = new Pipeline(Node.source(List.of(1, 2, 3)), Node.of(Secretive::new), Node.sink(s -> {}));

        assertThatThrownBy(program::runAndWaitEnd)
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("ff-pipe1-stage1")
                .hasRootCauseInstanceOf(ClassNotAllowedException.class)
                .rootCause()
                .hasMessageContaining(Secretive.class.getName())
                .hasMessageContaining("register");
    }

    @Test
    void shouldSendCopiesOfRegisteredItemsThroughTheSerializer() {
        DFF.checkSerialization(true);
        DFF.register(Point.class);
        List<Point> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add(new Point(i, -i));
        }
        List<Point> received = Collections.synchronizedList(new ArrayList<>());
        new Pipeline(Node.source(sent), Node.of((Point p) -> p), Node.<Point>sink(received::add)).runAndWaitEnd();

        assertThat(received).isEqualTo(sent);
        for (int i = 0; i < sent.size(); i++) {
            assertThat(received.get(i)).as("a deserialized copy").isNotSameAs(sent.get(i));
        }
    }

    @Test
    void shouldLeaveItemsAloneWithoutTheCheck() {
        List<Secretive> received = Collections.synchronizedList(new ArrayList<>());
        Secretive one = new Secretive(1);
        new Pipeline(Node.source(List.of(one)), Node.<Secretive>sink(received::add)).runAndWaitEnd();

        assertThat(received).containsExactly(one);
    }
}
