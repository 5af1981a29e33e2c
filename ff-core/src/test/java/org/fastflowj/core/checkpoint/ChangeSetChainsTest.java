package org.fastflowj.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints whose states hold change sets: read back with the states they build on, kept while a
 * retained one needs them, and never restored when a link of their chain is damaged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChangeSetChainsTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Node "keyed" whole at {@code whole}, then changes; node "source" whole in each. */
    private static Checkpoint checkpoint(long id, long changesSince) {
        Map<String, byte[]> states = Map.of("keyed", bytes("keyed@" + id), "source", bytes("source@" + id));
        return changesSince < 0
                ? new Checkpoint(id, states)
                : new Checkpoint(id, states, Set.of(), Map.of("keyed", changesSince), Map.of());
    }

    private static List<String> texts(List<byte[]> chain) {
        return chain.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> all = Files.list(dir)) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aCheckpointOfChangeSetsReadsBackWithTheWholeStateAndEveryChangeBeforeIt() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir, 1);
        store.save(checkpoint(1, -1));
        store.save(checkpoint(2, 1));
        store.save(checkpoint(3, 2));

        Checkpoint latest = store.latest().orElseThrow();
        assertThat(latest.id()).isEqualTo(3);
        assertThat(texts(latest.chainOf("keyed"))).containsExactly("keyed@1", "keyed@2", "keyed@3");
        assertThat(texts(latest.chainOf("source"))).containsExactly("source@3");
        // Retaining one checkpoint keeps the two it builds on.
        assertThat(files()).hasSize(3);
    }

    @Test
    void aWholeStateLetsTheChainBeforeItGo() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir, 2);
        store.save(checkpoint(1, -1));
        store.save(checkpoint(2, 1));
        store.save(checkpoint(3, 2));
        store.save(checkpoint(4, -1));
        assertThat(files()).as("3 is retained, and needs 1 and 2").hasSize(4);

        store.save(checkpoint(5, 4));
        assertThat(files()).containsExactly(DirectoryStore.fileName(4), DirectoryStore.fileName(5));
        assertThat(texts(store.latest().orElseThrow().chainOf("keyed"))).containsExactly("keyed@4", "keyed@5");
    }

    @Test
    void aDamagedLinkMakesEveryCheckpointBuiltOnItUnusableAndTheOneBeforeIsRestored() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir, 3);
        store.save(checkpoint(1, -1));
        store.save(checkpoint(2, 1));
        store.save(checkpoint(3, 2));
        Path second = dir.resolve(DirectoryStore.fileName(2));
        byte[] damaged = Files.readAllBytes(second);
        damaged[damaged.length / 2] ^= 0x5a;
        Files.write(second, damaged);

        Checkpoint latest = store.latest().orElseThrow();
        assertThat(latest.id()).as("3 builds on the damaged 2").isEqualTo(1);
        assertThat(texts(latest.chainOf("keyed"))).containsExactly("keyed@1");
    }

    @Test
    void aMissingLinkIsNamed() throws IOException {
        DirectoryStore store = new DirectoryStore(dir, 3);
        store.save(checkpoint(1, -1));
        store.save(checkpoint(2, 1));
        Files.delete(dir.resolve(DirectoryStore.fileName(1)));

        assertThatThrownBy(() -> store.read(2))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("node keyed's state holds changes since checkpoint 1")
                .hasMessageContaining("is missing");
    }

    @Test
    void aStateOfChangesWithoutItsEarlierStatesIsRefusedAtRestore() {
        Checkpoint saved = checkpoint(2, 1);
        assertThatThrownBy(() -> saved.chainOf("keyed"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds changes since checkpoint 1");
    }
}
