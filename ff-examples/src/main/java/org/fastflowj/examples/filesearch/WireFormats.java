package org.fastflowj.examples.filesearch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;

/**
 * How the file search's items cross groups: a {@link Path} (Reader to Worker) as its string, a {@link
 * FileMatches} (Worker to Writer) as its path and its lines' numbers and bytes. {@code Path} is an
 * interface whose class belongs to the platform, so its serializer is registered for the class of the
 * default file system's paths.
 */
final class WireFormats {
    private WireFormats() {}

    /** Registers both serializers with the distributed run-time (before the run, in every process). */
    @SuppressWarnings("unchecked")
    static void register() {
        Class<Path> pathClass = (Class<Path>) Path.of("").getClass();
        DFF.serializer(pathClass, new PathSerializer());
        DFF.serializer(FileMatches.class, new FileMatchesSerializer());
    }

    static void writeString(String s, WireOutput out) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.writeBytes(bytes, 0, bytes.length);
    }

    static String readString(WireInput in) {
        byte[] bytes = new byte[in.readInt()];
        in.readBytes(bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static final class PathSerializer implements ItemSerializer<Path> {
        @Override
        public void write(Path path, WireOutput out) {
            writeString(path.toString(), out);
        }

        @Override
        public Path read(WireInput in) {
            return Path.of(readString(in));
        }
    }

    static final class FileMatchesSerializer implements ItemSerializer<FileMatches> {
        @Override
        public void write(FileMatches matches, WireOutput out) {
            writeString(matches.file().toString(), out);
            out.writeInt(matches.lines().size());
            for (MatchedLine line : matches.lines()) {
                byte[] bytes = line.bytes();
                out.writeLong(line.number());
                out.writeInt(bytes.length);
                out.writeBytes(bytes, 0, bytes.length);
            }
        }

        @Override
        public FileMatches read(WireInput in) {
            Path file = Path.of(readString(in));
            int count = in.readInt();
            List<MatchedLine> lines = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long number = in.readLong();
                byte[] bytes = new byte[in.readInt()];
                in.readBytes(bytes, 0, bytes.length);
                lines.add(new MatchedLine(number, bytes));
            }
            return new FileMatches(file, lines);
        }
    }
}
