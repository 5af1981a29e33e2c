package org.fastflowj.stream;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/** Ready-made sources: a collection, a rate-limited generator, the lines of files. */
public final class Sources {
    private static final int BATCH = 256;

    private Sources() {}

    /** Every element of {@code items}, in order; with parallelism n, instance i takes elements i, i + n, .... */
    public static <T> Source<T> of(Iterable<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return new Source<>() {
            @Override
            public String name() {
                return "collection";
            }

            @Override
            public boolean replayable() {
                return true;
            }

            @Override
            public SourceReader<T> open(int instance, int instances) {
                Iterator<? extends T> it = items.iterator();
                return new SourceReader<>() {
                    private long index;

                    @Override
                    public void savePosition(DataOutput out) throws IOException {
                        out.writeLong(index);
                    }

                    /** Walks the collection again up to the position: it must hold the same elements. */
                    @Override
                    public void seek(DataInput in) throws IOException {
                        long position = in.readLong();
                        while (index < position && it.hasNext()) {
                            it.next();
                            index++;
                        }
                    }

                    @Override
                    public boolean emit(Consumer<? super T> out) {
                        for (int n = 0; n < BATCH && it.hasNext(); n++) {
                            T item = it.next();
                            if (index++ % instances == instance) {
                                out.accept(item);
                            }
                        }
                        return it.hasNext();
                    }
                };
            }
        };
    }

    /**
     * {@code count} records {@code f(0)}, ..., {@code f(count - 1)}, or without end if {@code count < 0},
     * at most {@code perSecond} records per second in all ({@code perSecond <= 0}: as fast as possible).
     * With parallelism n, instance i makes the sequence numbers i, i + n, ..., at its share of the rate.
     */
    public static <T> Source<T> generator(long count, double perSecond, LongFunction<? extends T> f) {
        Objects.requireNonNull(f, "f");
        return new Source<>() {
            @Override
            public String name() {
                return "generator";
            }

            @Override
            public boolean replayable() {
                return true;
            }

            @Override
            public SourceReader<T> open(int instance, int instances) {
                return new Generator<>(count, perSecond / instances, f, instance, instances);
            }
        };
    }

    /**
     * The lines of a file, or of every regular file under a directory, in UTF-8, each ended by {@code \n}
     * or {@code \r\n} (the last one may be unterminated). With parallelism n: when there are at least n
     * files, instance i reads files i, i + n, ... whole; otherwise each file is cut into n byte ranges and
     * instance i reads the lines that start in range i (a line crossing a range's end is read by the
     * instance whose range it starts in), so one large file is read by every instance at once.
     */
    public static Source<String> lines(Path path) {
        Objects.requireNonNull(path, "path");
        return new Source<>() {
            @Override
            public String name() {
                return "lines(" + path.getFileName() + ")";
            }

            /** By byte offset: the files must not change between a run and its restart. */
            @Override
            public boolean replayable() {
                return true;
            }

            @Override
            public SourceReader<String> open(int instance, int instances) throws IOException {
                List<Path> files = files(path);
                List<LineReader.Range> mine = new ArrayList<>();
                if (files.size() >= instances) {
                    for (int i = instance; i < files.size(); i += instances) {
                        mine.add(new LineReader.Range(files.get(i), 0, Long.MAX_VALUE));
                    }
                } else {
                    for (Path file : files) {
                        long size = Files.size(file);
                        mine.add(new LineReader.Range(
                                file, size * instance / instances, size * (instance + 1) / instances));
                    }
                }
                return new LineReader(mine, BATCH);
            }
        };
    }

    private static List<Path> files(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            if (!Files.isRegularFile(path)) {
                throw new IOException("source lines(" + path + "): no such file or directory");
            }
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static final class Generator<T> implements SourceReader<T> {
        private final long count;
        private final long nanosPerRecord;
        private final LongFunction<? extends T> f;
        private final int step;
        private long start = System.nanoTime();
        private long next;
        private long made;

        @Override
        public void savePosition(DataOutput out) throws IOException {
            out.writeLong(next);
        }

        /** Goes on from the sequence number saved, at the rate from now. */
        @Override
        public void seek(DataInput in) throws IOException {
            next = in.readLong();
            start = System.nanoTime();
            made = 0;
        }

        Generator(long count, double perSecond, LongFunction<? extends T> f, int instance, int instances) {
            this.count = count;
            this.nanosPerRecord = perSecond > 0 ? (long) (1e9 / perSecond) : 0;
            this.f = f;
            this.step = instances;
            this.next = instance;
        }

        @Override
        public boolean emit(Consumer<? super T> out) {
            for (int n = 0; n < BATCH; n++) {
                if (count >= 0 && next >= count) {
                    return false;
                }
                if (nanosPerRecord > 0) {
                    long due = start + made * nanosPerRecord - System.nanoTime();
                    if (due > 0) {
                        LockSupport.parkNanos(due);
                        return true;
                    }
                }
                out.accept(f.apply(next));
                next += step;
                made++;
            }
            return true;
        }
    }
}
