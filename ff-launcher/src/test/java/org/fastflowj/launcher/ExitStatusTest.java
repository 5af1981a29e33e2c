package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExitStatusTest {
    @Test
    void shouldNameTheSignalBehindACodeAbove128() {
        assertThat(ExitStatus.describe(137, false)).isEqualTo("exit code 137 (signal 9, SIGKILL)");
        assertThat(ExitStatus.describe(143, true)).isEqualTo("exit code 143 (signal 15, SIGTERM)");
    }

    @Test
    void shouldNameAJvmErrorHaltForStatus3() {
        assertThat(ExitStatus.describe(3, false)).contains("out of memory");
        assertThat(ExitStatus.describe(1, false)).isEqualTo("exit code 1");
    }

    @Test
    void shouldNameSshsOwnFailureOnlyForARemoteGroup() {
        assertThat(ExitStatus.describe(255, true)).contains("ssh");
        assertThat(ExitStatus.describe(255, false)).isEqualTo("exit code 255");
    }
}
