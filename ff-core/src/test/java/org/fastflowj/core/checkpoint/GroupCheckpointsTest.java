package org.fastflowj.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of a program in groups: when a checkpoint is complete, which one a restart takes, end records. */
class GroupCheckpointsTest {
    private static final List<String> GROUPS = List.of("A", "B");

    @TempDir
    Path dir;

    private GroupCheckpoints of(String group) {
        return GroupCheckpoints.of(dir, 3, group, GROUPS);
    }

    private static Checkpoint part(long id, String node, int value) {
        return new Checkpoint(id, Map.of(node, new byte[] {(byte) value}));
    }

    @Test
    void aCheckpointIsCompleteOnceEveryGroupSavedItsPart() throws IOException {
        of("A").own().save(part(1, "a", 1));

        assertThat(of("A").complete(1)).isFalse();

        of("B").own().save(part(1, "b", 1));

        assertThat(of("A").complete(1)).isTrue();
        assertThat(of(null).newestComplete()).isEqualTo(1);
    }

    @Test
    void aGroupThatEndedStandsForItsPartOfLaterCheckpointsOnly() throws IOException {
        of("A").own().save(part(1, "a", 1));
        of("B").own().save(part(1, "b", 1));
        of("A").saveEnd(new Checkpoint(1, Map.of("sink", new byte[] {9}), Set.of("a", "sink")));
        of("B").own().save(part(2, "b", 2));

        assertThat(of("B").complete(2)).isTrue();
        assertThat(of(null).newestComplete()).isEqualTo(2);
        assertThat(of("A").partOf(2).finished()).containsExactlyInAnyOrder("a", "sink");
        assertThat(of("A").partOf(1).states()).containsOnlyKeys("a");
        assertThat(of(null).highestId()).isEqualTo(2);
    }

    @Test
    void aRestartSkipsACheckpointWithADamagedPartAndClearingAnEndMakesLaterOnesWaitForTheGroup() throws IOException {
        of("A").own().save(part(1, "a", 1));
        of("B").own().save(part(1, "b", 1));
        of("A").own().save(part(2, "a", 2));
        of("B").own().save(part(2, "b", 2));
        Path damaged = dir.resolve("B").resolve("chk-0000000000000000002.ffcp");
        byte[] bytes = Files.readAllBytes(damaged);
        bytes[bytes.length - 1] ^= 1;
        Files.write(damaged, bytes);

        assertThat(of(null).newestComplete()).isEqualTo(1);

        of("A").saveEnd(new Checkpoint(2, Map.of(), Set.of("a")));
        assertThat(of("B").complete(3)).isFalse();
        of("B").saveEnd(new Checkpoint(2, Map.of(), Set.of("b")));
        assertThat(of("A").complete(3)).isTrue();
        of("B").clearEnd();
        assertThat(of("A").complete(3)).isFalse();
    }

    @Test
    void aRestartDropsTheGroupsPartsOfCheckpointsThatNeverCompleted() throws IOException {
        of("A").own().save(part(1, "a", 1));
        of("B").own().save(part(1, "b", 1));
        of("A").own().save(part(2, "a", 2)); // B was lost before it saved its part of 2

        of("A").dropPartsAfter(of(null).newestComplete());

        assertThat(of("A").ownHighestId()).isEqualTo(1);
        assertThat(of("A").partOf(1).states()).containsOnlyKeys("a");
        assertThat(of(null).highestId()).isEqualTo(1);
    }

    @Test
    void aPartThatIsMissingIsNamed() {
        assertThatThrownBy(() -> of("A").partOf(4))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("no part of checkpoint 4");
    }

    @Test
    void aStoreThatIsNotADirectoryOrAGroupNameThatCannotBeOneIsRefused() {
        CheckpointStore elsewhere = new CheckpointStore() {
            @Override
            public void save(Checkpoint checkpoint) {}

            @Override
            public java.util.Optional<Checkpoint> latest() {
                return java.util.Optional.empty();
            }

            @Override
            public long highestId() {
                return 0;
            }

            @Override
            public String describe() {
                return "memory";
            }
        };
        assertThatThrownBy(() -> GroupCheckpoints.of(elsewhere, "A", GROUPS))
                .hasMessageContaining("in a directory every group reaches")
                .hasMessageContaining("memory");
        assertThatThrownBy(() -> GroupCheckpoints.of(dir, 3, "A", List.of("A", "../x")))
                .hasMessageContaining("'../x'");
    }
}
