package org.fastflowj.core.checkpoint;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CheckpointStore#directory}: one file per checkpoint, {@code chk-<id>.ffcp}, written under a
 * temporary name, forced to disk and renamed, so a file under its final name was written whole. Each
 * file carries a magic word, its format version, its id and a CRC-32 of everything before it; a file
 * that fails any check is skipped with a warning naming why, and the one before it is read instead.
 *
 * <p>Layout: {@code "FFJ-CKPT"}, int version, long id, int count, count × (UTF name, int length, bytes),
 * int finished, finished × UTF name (the nodes that had ended), int changes, changes × (UTF name, long
 * id: the node's state holds changes since its state in checkpoint id), int CRC-32. Version 1 files have
 * no finished names, version 2 files no changes; both are read too.
 *
 * <p>A checkpoint whose change sets build on earlier checkpoints is read with them: it is usable only if
 * each of those is (whole, checked, holding the node's state), and those are kept while it is retained.
 */
final class DirectoryStore implements CheckpointStore {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryStore.class);
    private static final byte[] MAGIC = "FFJ-CKPT".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 3;
    /** The format before ended nodes were recorded: read as a checkpoint in which none had ended. */
    private static final int VERSION_WITHOUT_FINISHED = 1;
    /** The format before change sets: read as a checkpoint of whole states. */
    private static final int VERSION_WITHOUT_CHANGES = 2;

    private static final Pattern NAME = Pattern.compile("chk-(\\d{19})\\.ffcp");
    /** A group's end record ({@link #saveEnd}); never matched by {@link #NAME}. */
    private static final String END_FILE = "end.ffcp";
    /** {@link #decode}'s expected id for a file whose name carries none. */
    private static final long ANY_ID = -1;

    private final Path directory;
    private final int retained;
    /** A checkpoint was saved here: from then on the directory must stay. */
    private volatile boolean saved;
    /**
     * The oldest checkpoint each checkpoint here needs (itself, or the first of the chain its change sets
     * build on), as saved or read by this store; the retention keeps what the retained ones need.
     */
    private final Map<Long, Long> oldestNeeded = new ConcurrentHashMap<>();

    DirectoryStore(Path directory, int retained) {
        this.directory = Objects.requireNonNull(directory, "directory");
        if (retained < 1) {
            throw new IllegalArgumentException("a checkpoint store retains at least 1 checkpoint, got " + retained);
        }
        this.retained = retained;
    }

    /**
     * Nodes read their states back as they wrote them (the stream layer's with Kryo, which makes objects of
     * whatever classes the bytes name): only the user who runs the job may write, or read, the store (a
     * directory it makes is 700, each file 600).
     */
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private static void createPrivateDirectories(Path directory) throws IOException {
        if (POSIX) {
            Files.createDirectories(
                    directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(directory);
        }
    }

    static String fileName(long id) {
        return String.format("chk-%019d.ffcp", id);
    }

    @Override
    public void save(Checkpoint checkpoint) throws IOException {
        long oldest = checkpoint.id();
        for (long since : checkpoint.changesSince().values()) {
            oldest = Math.min(oldest, oldestNeeded(since));
        }
        write(fileName(checkpoint.id()), checkpoint);
        oldestNeeded.put(checkpoint.id(), oldest);
        dropOld();
    }

    /** The oldest checkpoint {@code id} needs; itself if it cannot be read (then it is not usable anyway). */
    private long oldestNeeded(long id) {
        Long known = oldestNeeded.get(id);
        if (known != null) {
            return known;
        }
        try {
            Checkpoint checkpoint = decode(Files.readAllBytes(directory.resolve(fileName(id))), id);
            long oldest = id;
            for (long since : checkpoint.changesSince().values()) {
                oldest = Math.min(oldest, since < id ? oldestNeeded(since) : id);
            }
            oldestNeeded.put(id, oldest);
            return oldest;
        } catch (IOException e) {
            return id;
        }
    }

    /** The directory of the checkpoints of group {@code group} of a program in groups: one below this one. */
    DirectoryStore group(String group) {
        return new DirectoryStore(directory.resolve(group), retained);
    }

    /** Where the checkpoints are. */
    Path directory() {
        return directory;
    }

    /**
     * Saves {@code end} as the record of a group that ended: every checkpoint numbered after {@code
     * end.id()} (the last it saved a part of) counts it as ended, with the states it ended with.
     */
    void saveEnd(Checkpoint end) throws IOException {
        write(END_FILE, end);
    }

    /** Drops the record of an end: the group runs again. */
    void deleteEnd() throws IOException {
        Files.deleteIfExists(directory.resolve(END_FILE));
    }

    /** The record of the group's end, read and checked; empty if there is none. */
    Optional<Checkpoint> readEnd() throws CorruptCheckpointException, IOException {
        Path file = directory.resolve(END_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(decode(Files.readAllBytes(file), ANY_ID));
    }

    /** Deletes the checkpoints numbered after {@code id}. */
    void dropAfter(long id) throws IOException {
        for (long newer : ids()) {
            if (newer > id) {
                Files.deleteIfExists(directory.resolve(fileName(newer)));
                oldestNeeded.remove(newer);
            }
        }
    }

    /** Whether checkpoint {@code id} was saved here under its final name (whole, not yet checked). */
    boolean has(long id) {
        return Files.isRegularFile(directory.resolve(fileName(id)));
    }

    /** Whether a group's end was recorded here (whole, not yet checked). */
    boolean hasEnd() {
        return Files.isRegularFile(directory.resolve(END_FILE));
    }

    /** Checkpoint {@code id}, read and checked. */
    Checkpoint read(long id) throws CorruptCheckpointException, IOException {
        return withEarlierStates(readOne(id));
    }

    /** Checkpoint {@code id} alone, read and checked: its change sets without what they build on. */
    private Checkpoint readOne(long id) throws CorruptCheckpointException, IOException {
        Path file = directory.resolve(fileName(id));
        if (!Files.isRegularFile(file)) {
            throw new CorruptCheckpointException(file.getFileName() + " is missing");
        }
        return decode(Files.readAllBytes(file), id);
    }

    /**
     * {@code checkpoint} with the states its change sets build on, read from the checkpoints they name.
     *
     * @throws CorruptCheckpointException naming the node and the checkpoint, if one of those is unusable
     */
    private Checkpoint withEarlierStates(Checkpoint checkpoint) throws CorruptCheckpointException, IOException {
        if (checkpoint.changesSince().isEmpty()) {
            return checkpoint;
        }
        Map<Long, Checkpoint> read = new HashMap<>();
        Map<String, List<byte[]>> earlier = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : checkpoint.changesSince().entrySet()) {
            String node = e.getKey();
            List<byte[]> chain = new ArrayList<>();
            long since = e.getValue();
            while (true) {
                Checkpoint before = read.get(since);
                if (before == null) {
                    try {
                        before = readOne(since);
                    } catch (CorruptCheckpointException problem) {
                        throw new CorruptCheckpointException("node " + node + "'s state holds changes since checkpoint "
                                + e.getValue() + ", whose chain is unusable: " + problem.getMessage());
                    }
                    read.put(since, before);
                }
                byte[] state = before.states().get(node);
                if (state == null) {
                    throw new CorruptCheckpointException("node " + node + "'s state holds changes building on"
                            + " checkpoint " + since + ", which has no state of it");
                }
                chain.add(0, state);
                Long next = before.changesSince().get(node);
                if (next == null) {
                    break;
                }
                since = next;
            }
            earlier.put(node, chain);
        }
        return checkpoint.withEarlierStates(earlier);
    }

    /** Writes {@code checkpoint} under {@code name}: whole under that name, or not at all. */
    private void write(String name, Checkpoint checkpoint) throws IOException {
        if (!Files.isDirectory(directory)) {
            if (saved) {
                // A store that vanished under a run is an operator's problem to see, not to paper over.
                throw new IOException("checkpoint directory " + directory + " is gone");
            }
            createPrivateDirectories(directory);
        }
        byte[] bytes = encode(checkpoint);
        Path target = directory.resolve(name);
        Path temporary = directory.resolve("." + name + ".tmp");
        try {
            Files.deleteIfExists(temporary);
            try (FileChannel file = POSIX
                    ? FileChannel.open(
                            temporary,
                            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                            PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE))
                    : FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    file.write(buffer);
                }
                file.force(true);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
        saved = true;
        forceDirectory();
    }

    /** The rename is durable only once the directory is: best effort where the platform refuses. */
    private void forceDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot force directory {}: {}", directory, e.toString());
        }
    }

    /** Drops the checkpoints beyond the retained ones, but for those a retained one builds on. */
    private void dropOld() throws IOException {
        List<Long> ids = ids();
        long needed = Long.MAX_VALUE;
        for (int i = 0; i < Math.min(retained, ids.size()); i++) {
            needed = Math.min(needed, oldestNeeded(ids.get(i)));
        }
        for (int i = retained; i < ids.size(); i++) {
            if (ids.get(i) < needed) {
                Files.deleteIfExists(directory.resolve(fileName(ids.get(i))));
                oldestNeeded.remove(ids.get(i));
            }
        }
    }

    @Override
    public Optional<Checkpoint> latest() throws IOException {
        List<String> problems = new ArrayList<>();
        for (long id : ids()) {
            Path file = directory.resolve(fileName(id));
            try {
                Checkpoint checkpoint = withEarlierStates(decode(Files.readAllBytes(file), id));
                if (!problems.isEmpty()) {
                    LOG.warn("restoring checkpoint {} from {}: newer ones are unusable: {}", id, directory, problems);
                }
                return Optional.of(checkpoint);
            } catch (CorruptCheckpointException e) {
                problems.add(file.getFileName() + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new CorruptCheckpointException(
                    "no usable checkpoint in " + directory + ": " + String.join("; ", problems));
        }
        return Optional.empty();
    }

    @Override
    public long highestId() throws IOException {
        List<Long> ids = ids();
        return ids.isEmpty() ? 0 : ids.get(0);
    }

    /** The ids of the files under a checkpoint's name, newest first. */
    List<Long> ids() throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Long> ids = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(f -> {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches()) {
                    ids.add(Long.parseLong(m.group(1)));
                }
            });
        }
        ids.sort(Comparator.reverseOrder());
        return ids;
    }

    @Override
    public String describe() {
        return "directory " + directory;
    }

    @Override
    public String toString() {
        return describe();
    }

    static byte[] encode(Checkpoint checkpoint) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream((int) Math.min(1 << 30, 64 + checkpoint.sizeBytes()));
        DataOutputStream out = new DataOutputStream(buffer);
        out.write(MAGIC);
        out.writeInt(VERSION);
        out.writeLong(checkpoint.id());
        out.writeInt(checkpoint.states().size());
        for (Map.Entry<String, byte[]> e : checkpoint.states().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeInt(e.getValue().length);
            out.write(e.getValue());
        }
        out.writeInt(checkpoint.finished().size());
        for (String name : new TreeSet<>(checkpoint.finished())) {
            out.writeUTF(name);
        }
        out.writeInt(checkpoint.changesSince().size());
        for (Map.Entry<String, Long> e : new TreeMap<>(checkpoint.changesSince()).entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue());
        }
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(buffer.toByteArray());
        out.writeInt((int) crc.getValue());
        out.flush();
        return buffer.toByteArray();
    }

    static Checkpoint decode(byte[] bytes, long expectedId) throws CorruptCheckpointException {
        if (bytes.length < MAGIC.length + 4 + 8 + 4 + 4) {
            throw new CorruptCheckpointException("too short (" + bytes.length + " bytes)");
        }
        if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new CorruptCheckpointException("not a checkpoint file (no magic word)");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(bytes, MAGIC.length, bytes.length - 4 - MAGIC.length));
        try {
            int version = in.readInt();
            if (version != VERSION && version != VERSION_WITHOUT_FINISHED && version != VERSION_WITHOUT_CHANGES) {
                throw new CorruptCheckpointException("format version " + version + ", this library reads " + VERSION);
            }
            if ((int) crc.getValue() != stored) {
                throw new CorruptCheckpointException("CRC-32 mismatch (the file was damaged or cut short)");
            }
            long id = in.readLong();
            if (expectedId != ANY_ID && id != expectedId) {
                throw new CorruptCheckpointException("holds checkpoint " + id + " under the name of " + expectedId);
            }
            int count = in.readInt();
            if (count < 0) {
                throw new CorruptCheckpointException("negative state count " + count);
            }
            Map<String, byte[]> states = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                int length = in.readInt();
                if (length < 0 || length > in.available()) {
                    throw new CorruptCheckpointException("state of " + name + " claims " + length + " bytes");
                }
                byte[] state = new byte[length];
                in.readFully(state);
                states.put(name, state);
            }
            Set<String> finished = new LinkedHashSet<>();
            if (version != VERSION_WITHOUT_FINISHED) {
                int ended = in.readInt();
                if (ended < 0) {
                    throw new CorruptCheckpointException("negative count of ended nodes " + ended);
                }
                for (int i = 0; i < ended; i++) {
                    finished.add(in.readUTF());
                }
            }
            Map<String, Long> changesSince = new LinkedHashMap<>();
            if (version == VERSION) {
                int changed = in.readInt();
                if (changed < 0) {
                    throw new CorruptCheckpointException("negative count of change sets " + changed);
                }
                for (int i = 0; i < changed; i++) {
                    changesSince.put(in.readUTF(), in.readLong());
                }
            }
            if (in.available() != 0) {
                throw new CorruptCheckpointException(in.available() + " bytes after the last state");
            }
            try {
                return new Checkpoint(id, states, finished, changesSince, Map.of());
            } catch (IllegalArgumentException e) {
                throw new CorruptCheckpointException(e.getMessage());
            }
        } catch (EOFException e) {
            throw new CorruptCheckpointException("ends inside its states");
        } catch (CorruptCheckpointException e) {
            throw e;
        } catch (IOException e) {
            throw new CorruptCheckpointException("unreadable: " + e);
        }
    }
}
