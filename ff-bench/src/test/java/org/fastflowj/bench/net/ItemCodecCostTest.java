package org.fastflowj.bench.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ItemCodecCost}'s body writes and reads back every item of its batch, in full, in every cell. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ItemCodecCostTest {

    @ParameterizedTest
    @CsvSource({"8, DEFAULT, HEAP, 128", "8, CUSTOM, DIRECT, 128", "65536, DEFAULT, DIRECT, 1", "65536, CUSTOM, HEAP, 1"
    })
    void shouldReadBackEveryItemOfTheBatch(int payloadBytes, String serialization, String buffer, int items) {
        ItemCodecCost bench = new ItemCodecCost();
        bench.payloadBytes = payloadBytes;
        bench.serialization = serialization;
        bench.buffer = buffer;
        bench.setUp();
        try {
            for (int round = 0; round < 3; round++) {
                assertThat(bench.writeAndReadBatch()).isEqualTo((long) items * Payload.FIRST_BYTE);
            }
        } finally {
            bench.tearDown();
        }
    }
}
