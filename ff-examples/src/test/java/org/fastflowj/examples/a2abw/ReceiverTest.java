package org.fastflowj.examples.a2abw;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReceiverTest {
    @Test
    void shouldReportTheEarliestSendOfItsChunksNotWhenTheyCame() {
        Receiver receiver = new Receiver();
        long before = Chunk.epochNanos();
        receiver.svc(new Chunk(10, new byte[] {1, 2}, 5_000));
        receiver.svc(new Chunk(0, new byte[] {3, 4, 5}, 3_000));
        receiver.svc(new Chunk(12, new byte[] {6}, 4_000));

        Report report = receiver.report();

        assertThat(report.firstSentNs()).isEqualTo(3_000);
        assertThat(report.bytes()).isEqualTo(6);
        assertThat(report.endNs()).isGreaterThanOrEqualTo(before);
    }
}
