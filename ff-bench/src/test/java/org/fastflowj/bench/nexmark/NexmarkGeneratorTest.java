package org.fastflowj.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
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

    @Test
    void aSliceSoughtToAnotherSlicesPositionMakesTheSameEventsFromThere() {
        RunSpec spec = new RunSpec("seek", Query.Q8, 10_000, 2, 1_000, 0, Tally.Mode.COUNT);
        Slice read = spec.slice(1, 2, Slice.Kind.AUCTIONS);
        for (int i = 0; i < 40; i++) {
            read.next();
        }
        Slice resumed = spec.slice(1, 2, Slice.Kind.AUCTIONS);
        resumed.seek(read.position());

        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        while (read.hasNext()) {
            expected.add(read.next().toString());
            actual.add(resumed.next().toString());
        }
        assertThat(resumed.hasNext()).isFalse();
        assertThat(actual).hasSizeGreaterThan(100).isEqualTo(expected);
        assertThat(expected).allMatch(e -> e.startsWith("Auction"));
    }

    @Test
    void aSliceRefusesAnotherInstancesPosition() {
        RunSpec spec = new RunSpec("seek", Query.Q8, 10_000, 2, 1_000, 0, Tally.Mode.COUNT);
        Slice odd = spec.slice(1, 2, Slice.Kind.ALL);
        assertThatThrownBy(() -> odd.seek(10)).hasMessageContaining("position 10");
    }
}
