package org.fastflowj.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The directory store: what it writes reads back whole, and anything damaged is passed over for the one before. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectoryStoreTest {
    @TempDir
    Path dir;

    private static Checkpoint checkpoint(long id) {
        Map<String, byte[]> states = new LinkedHashMap<>();
        states.put("pipe1-stage0", ByteBuffer.allocate(8).putLong(id * 7).array());
        states.put("farm1-worker2", ("state of " + id).getBytes());
        states.put("empty", new byte[0]);
        return new Checkpoint(id, states);
    }

    private static void assertSameStates(Checkpoint actual, Checkpoint expected) {
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.states().keySet()).isEqualTo(expected.states().keySet());
        expected.states()
                .forEach((name, bytes) ->
                        assertThat(actual.states().get(name)).as(name).isEqualTo(bytes));
    }

    private Path file(long id) {
        return dir.resolve(DirectoryStore.fileName(id));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> all = Files.list(dir)) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anEmptyOrMissingStoreHasNoCheckpoint() throws IOException {
        assertThat(CheckpointStore.directory(dir).latest()).isEmpty();
        assertThat(CheckpointStore.directory(dir.resolve("not-yet")).latest()).isEmpty();
        assertThat(CheckpointStore.directory(dir).highestId()).isZero();
    }

    @Test
    void whatIsSavedReadsBackByteForByte() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir.resolve("made/on/first/save"));
        store.save(checkpoint(1));
        store.save(checkpoint(2));

        assertSameStates(store.latest().orElseThrow(), checkpoint(2));
        assertThat(store.highestId()).isEqualTo(2);
        assertThat(store.describe()).contains("made/on/first/save");
    }

    @Test
    void onlyItsUserMayReadOrWriteTheStore() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Path place = dir.resolve("private");
        CheckpointStore store = CheckpointStore.directory(place);
        store.save(checkpoint(1));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(place)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(place.resolve(DirectoryStore.fileName(1)))))
                .isEqualTo("rw-------");
    }

    @Test
    void onlyTheRetainedNewestCheckpointsAreKept() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir, 2);
        for (long id = 1; id <= 5; id++) {
            store.save(checkpoint(id));
        }
        assertThat(files()).containsExactly(DirectoryStore.fileName(4), DirectoryStore.fileName(5));
        assertThatThrownBy(() -> CheckpointStore.directory(dir, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void aDamagedNewestCheckpointIsPassedOverForTheOneBefore() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        store.save(checkpoint(2));
        byte[] bytes = Files.readAllBytes(file(2));
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(file(2), bytes);

        assertSameStates(store.latest().orElseThrow(), checkpoint(1));
        // its number is taken all the same: a new run must not write a second checkpoint 2
        assertThat(store.highestId()).isEqualTo(2);
    }

    @Test
    void aCheckpointCutShortIsPassedOver() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        store.save(checkpoint(2));
        byte[] bytes = Files.readAllBytes(file(2));
        for (int length : new int[] {0, 10, bytes.length / 2, bytes.length - 1}) {
            Files.write(file(2), Arrays.copyOf(bytes, length));
            assertSameStates(store.latest().orElseThrow(), checkpoint(1));
        }
    }

    @Test
    void aTemporaryFileLeftByACrashDuringASaveIsIgnored() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        byte[] whole = Files.readAllBytes(file(1));
        Files.write(dir.resolve("." + DirectoryStore.fileName(2) + ".tmp"), Arrays.copyOf(whole, 20));

        assertSameStates(store.latest().orElseThrow(), checkpoint(1));
        assertThat(store.highestId()).isEqualTo(1);
    }

    @Test
    void theNodesThatHadEndedReadBack() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        Checkpoint saved = new Checkpoint(4, checkpoint(4).states(), java.util.Set.of("source-2", "count"));
        store.save(saved);

        Checkpoint read = store.latest().orElseThrow();
        assertSameStates(read, saved);
        assertThat(read.finished()).containsExactlyInAnyOrder("source-2", "count");
    }

    /** The current format of {@code checkpoint(3)} cut to an older version: its last {@code cut} ints gone. */
    private void writeOlderVersion(int version, int cut) throws IOException {
        byte[] current = DirectoryStore.encode(checkpoint(3));
        byte[] body = Arrays.copyOfRange(current, 0, current.length - 4 - cut);
        ByteBuffer.wrap(body).putInt(8, version);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body);
        byte[] older = ByteBuffer.allocate(body.length + 4)
                .put(body)
                .putInt((int) crc.getValue())
                .array();
        Files.createDirectories(dir);
        Files.write(file(3), older);
    }

    @Test
    void aFileOfTheFormatWithoutEndedNodesReadsAsOneWhereNoneHadEnded() throws IOException {
        // Version 1 has neither the count of ended nodes nor that of change sets (both 0 here).
        writeOlderVersion(1, 8);

        Checkpoint read = CheckpointStore.directory(dir).latest().orElseThrow();
        assertSameStates(read, checkpoint(3));
        assertThat(read.finished()).isEmpty();
    }

    @Test
    void aFileOfTheFormatWithoutChangeSetsReadsAsOneOfWholeStates() throws IOException {
        writeOlderVersion(2, 4);

        Checkpoint read = CheckpointStore.directory(dir).latest().orElseThrow();
        assertSameStates(read, checkpoint(3));
        assertThat(read.changesSince()).isEmpty();
    }

    @Test
    void aFileOfAnotherFormatVersionIsRefusedSayingSo() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        byte[] bytes = Files.readAllBytes(file(1));
        ByteBuffer.wrap(bytes).putInt(8, DirectoryStore.VERSION + 1);
        Files.write(file(1), bytes);

        assertThatThrownBy(store::latest)
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(DirectoryStore.fileName(1))
                .hasMessageContaining("format version " + (DirectoryStore.VERSION + 1));
    }

    @Test
    void aCheckpointUnderAnotherNumbersNameIsRefused() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        Files.move(file(1), file(7));

        assertThatThrownBy(store::latest)
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("holds checkpoint 1 under the name of 7");
    }

    @Test
    void whenNoCheckpointIsUsableEveryFileAndItsFaultAreNamed() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        store.save(checkpoint(1));
        store.save(checkpoint(2));
        Files.write(file(1), new byte[] {1, 2, 3});
        Files.write(file(2), "not a checkpoint at all, but long enough".getBytes());

        assertThatThrownBy(store::latest)
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(DirectoryStore.fileName(1) + ": too short (3 bytes)")
                .hasMessageContaining(DirectoryStore.fileName(2) + ": not a checkpoint file");
    }

    @Test
    void aStoreWhoseDirectoryVanishedUnderARunFailsTheSave() throws IOException {
        Path place = dir.resolve("store");
        CheckpointStore store = CheckpointStore.directory(place);
        store.save(checkpoint(1));
        Files.delete(place.resolve(DirectoryStore.fileName(1)));
        Files.delete(place);

        assertThatThrownBy(() -> store.save(checkpoint(2)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is gone");
    }

    /** A file system that fills up mid-save: the save fails, and the checkpoint before stays whole. */
    @Test
    void aFullFileSystemFailsTheSaveAndKeepsThePreviousCheckpoint() throws Exception {
        assumeTrue(
                "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/bin/mount")),
                "mounting a small tmpfs needs root and mount(8)");
        Path mountPoint = Files.createDirectory(dir.resolve("small"));
        assumeTrue(
                run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.toString()) == 0,
                "this machine refuses to mount a tmpfs");
        try {
            CheckpointStore store = CheckpointStore.directory(mountPoint, 1);
            store.save(new Checkpoint(1, Map.of("small", new byte[1024])));

            assertThatThrownBy(() -> store.save(new Checkpoint(2, Map.of("big", new byte[1 << 20]))))
                    .isInstanceOf(IOException.class);
            Checkpoint latest = store.latest().orElseThrow();
            assertThat(latest.id()).isEqualTo(1);
            assertThat(latest.states().get("small")).hasSize(1024);
            try (Stream<Path> left = Files.list(mountPoint)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("no temporary file left behind")
                        .containsExactly(DirectoryStore.fileName(1));
            }
        } finally {
            run("umount", mountPoint.toString());
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
