package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The sealed lines from a group to its launcher: only the group's own, fresh, untouched lines open. */
class ControlLineTest {
    private final String key = ControlLine.newKey();
    private final ControlLine.Sealer group = new ControlLine.Sealer(key);
    private final ControlLine.Verifier launcher = new ControlLine.Verifier(key);

    @Test
    void shouldOpenTheGroupsLinesInOrder() {
        assertThat(launcher.open(group.seal("DFF_LOSABLE: W1,W2"))).isEqualTo("DFF_LOSABLE: W1,W2");
        assertThat(launcher.open(group.seal("DFF_LOST: W2"))).isEqualTo("DFF_LOST: W2");
        assertThat(launcher.open(group.seal("DFF_GROUPS: "))).isEqualTo("DFF_GROUPS: ");
    }

    @Test
    void shouldTakeAProgramsLineThatOnlyLooksLikeNewsForData() {
        for (String line : new String[] {
            "DFF_LOST: W2",
            "DFF_STATS: 12 n a 1 1 1 1 1 1",
            "DFF_CONTROL:",
            "DFF_CONTROL: 1",
            "DFF_CONTROL: 1 AAAAAAAAAAAAAAAAAAAAAA DFF_LOST: W2",
            "DFF_CONTROL: x AAAAAAAAAAAAAAAAAAAAAA DFF_LOST: W2",
            "DFF_CONTROL: 1 !!not-base64!! DFF_LOST: W2",
        }) {
            assertThat(launcher.open(line)).as(line).isNull();
        }
    }

    @Test
    void shouldRefuseAReplayedOrOlderLine() {
        String first = group.seal("DFF_CONNECTED: A");
        String second = group.seal("DFF_LOST: W2");
        assertThat(launcher.open(second)).isEqualTo("DFF_LOST: W2");
        assertThat(launcher.open(second)).isNull();
        assertThat(launcher.open(first)).isNull();
    }

    @Test
    void shouldRefuseALineSealedWithAnotherGroupsKeyOrChanged() {
        String others = new ControlLine.Sealer(ControlLine.newKey()).seal("DFF_LOST: W2");
        assertThat(launcher.open(others)).isNull();
        String mine = group.seal("DFF_LOST: W2");
        assertThat(launcher.open(mine.replace("W2", "W3"))).isNull();
        assertThat(launcher.open(mine.replaceFirst("DFF_CONTROL: 1 ", "DFF_CONTROL: 2 ")))
                .isNull();
        assertThat(launcher.open(mine)).isEqualTo("DFF_LOST: W2");
    }

    @Test
    void shouldPrintPlainLinesWithoutAKeyAndSealedOnesWithOne() {
        assertThat(printed(new ControlLine.Sealer(null), "DFF_CONNECTED: A")).isEqualTo("DFF_CONNECTED: A\n");
        String sealed = printed(group, "DFF_CONNECTED: A");
        assertThat(sealed).startsWith(ControlLine.PREFIX + " 1 ").endsWith(" DFF_CONNECTED: A\n");
        assertThat(launcher.open(sealed.strip())).isEqualTo("DFF_CONNECTED: A");
    }

    @Test
    void shouldRefuseAMessageOfMoreThanOneLineAndAMalformedKey() {
        assertThatThrownBy(() -> group.seal("DFF_LOST: W2\nDFF_LOST: W3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ControlLine.Verifier("c2hvcnQ"))
                .hasMessageContaining(ControlLine.ENV)
                .hasMessageContaining("32 bytes");
    }

    private static String printed(ControlLine.Sealer sealer, String message) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        sealer.emit(new PrintStream(bytes, true, StandardCharsets.UTF_8), message);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
