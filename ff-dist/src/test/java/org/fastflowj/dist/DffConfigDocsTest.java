package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps the example in docs/config.md a config that loads. */
@Timeout(30)
class DffConfigDocsTest {
    @Test
    void shouldLoadTheExampleOfTheUserPage() throws Exception {
        Path page = Path.of("..", "docs", "config.md");
        assumeTrue(Files.isRegularFile(page), "docs/ not next to ff-dist: not run from a full checkout");
        String text = Files.readString(page);
        int start = text.indexOf("```json\n") + "```json\n".length();
        String example = text.substring(start, text.indexOf("```", start));

        DffConfig config = DffConfig.parse(example, "config.md");

        assertThat(config.groups()).extracting(GroupConfig::name).containsExactly("G1", "G2", "G3", "G4");
        assertThat(config.group("G2").orElseThrow().threadMappingCpus()).containsExactly(0, 2, 4, 6);
        config.requireGroups(List.of("G1", "G2", "G3", "G4"));
    }
}
