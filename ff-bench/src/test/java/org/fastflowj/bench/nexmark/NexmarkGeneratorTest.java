package org.fastflowj.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
    @Test
    void aCardNumberIsFourZeroPaddedGroupsOfTheSameDrawsAsStringFormatGives() {
        for (long n = 0; n < 20_000; n++) {
            String card = NexmarkGenerator.cardNumber(new NexmarkGenerator.Draws(n));
            NexmarkGenerator.Draws same = new NexmarkGenerator.Draws(n);
            String formatted = String.format(
                    "%04d %04d %04d %04d",
                    same.nextInt(10_000), same.nextInt(10_000), same.nextInt(10_000), same.nextInt(10_000));
            assertThat(card).as("event %d", n).isEqualTo(formatted);
        }
    }
}
