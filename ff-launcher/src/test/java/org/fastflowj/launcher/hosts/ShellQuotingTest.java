package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ShellQuotingTest {
    @Test
    void shouldLeavePlainWordsReadableAndQuoteTheRest() {
        assertThat(ShellQuoting.join(List.of("java", "-cp", "a.jar:b.jar", "--DFF_GName=G1", "a b", "it's", "")))
                .isEqualTo("java -cp a.jar:b.jar --DFF_GName=G1 'a b' 'it'\\''s' ''");
    }

    @Test
    void shouldGiveTheSameWordsBackWhenAShellReadsThem() throws Exception {
        List<String> words = List.of("a b", "$HOME", "`x`", "it's", "\"q\"", "*", "");
        Process p = new ProcessBuilder("/bin/sh", "-c", "printf '%s\\n' " + ShellQuoting.join(words)).start();
        String printed = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(printed.split("\n", -1)).startsWith(words.toArray(String[]::new));
    }
}
