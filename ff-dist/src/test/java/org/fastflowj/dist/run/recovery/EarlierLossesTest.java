package org.fastflowj.dist.run.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a group lost stays lost for its later runs under the same config, and only for them. */
class EarlierLossesTest {
    @Test
    void shouldRememberEachGroupsLossesPerConfigObject() {
        Object config = new Object();
        Object sameValuesOtherRun = new Object();
        EarlierLosses.record(config, "S", "W2");
        EarlierLosses.record(config, "S", "W1");
        EarlierLosses.record(config, "S", "W2");
        EarlierLosses.record(config, "T", "W3");

        assertThat(EarlierLosses.of(config, "S")).containsExactlyInAnyOrder("W1", "W2");
        assertThat(EarlierLosses.of(config, "T")).containsExactly("W3");
        assertThat(EarlierLosses.of(config, "W1")).isEmpty();
        assertThat(EarlierLosses.of(sameValuesOtherRun, "S")).isEmpty();
    }
}
