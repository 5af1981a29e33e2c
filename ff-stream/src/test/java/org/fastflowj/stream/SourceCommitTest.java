package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A source hears how its job ended: commit after the sinks committed, abort when the job failed. */
@Timeout(60)
class SourceCommitTest {
    /** Three records; logs its readers' ends and the job's verdict into {@code events}. */
    private static Source<Integer> recording(List<String> events) {
        return new Source<>() {
            @Override
            public String name() {
                return "recording";
            }

            @Override
            public SourceReader<Integer> open(int instance, int instances) {
                return new SourceReader<>() {
                    private int next;

                    @Override
                    public boolean emit(Consumer<? super Integer> out) {
                        out.accept(next++);
                        return next < 3;
                    }
                };
            }

            @Override
            public void commit() {
                synchronized (events) {
                    events.add("source commit");
                }
            }

            @Override
            public void abort() {
                synchronized (events) {
                    events.add("source abort");
                }
            }
        };
    }

    private static Sink<Integer> sink(List<String> events, int failOn, boolean failCommit) {
        return new Sink<>() {
            @Override
            public String name() {
                return "log";
            }

            @Override
            public void write(Integer item) {
                if (item == failOn) {
                    throw new IllegalStateException("refused " + item);
                }
                synchronized (events) {
                    events.add("write " + item);
                }
            }

            @Override
            public void commit() {
                if (failCommit) {
                    throw new IllegalStateException("cannot commit");
                }
                synchronized (events) {
                    events.add("sink commit");
                }
            }

            @Override
            public void abort() {
                synchronized (events) {
                    events.add("sink abort");
                }
            }
        };
    }

    @Test
    void aSucceededJobCommitsItsSourceOnceAfterItsSinks() {
        List<String> events = new ArrayList<>();
        StreamJob job = StreamJob.named("ok");
        Source<Integer> source = recording(events);
        job.source(source).sink(sink(events, -1, false));
        job.source(source).map(x -> x * 10).sink(sink(events, -1, false));
        job.run();

        assertThat(events).filteredOn(e -> e.startsWith("source")).containsExactly("source commit");
        assertThat(events.indexOf("source commit")).isGreaterThan(events.lastIndexOf("sink commit"));
    }

    @Test
    void aFailedRunAbortsTheSourceAndNeverCommitsIt() {
        List<String> events = new ArrayList<>();
        StreamJob job = StreamJob.named("fails");
        job.source(recording(events)).sink(sink(events, 1, false));
        catchThrowableOfType(JobFailedException.class, job::run);

        assertThat(events).contains("source abort").doesNotContain("source commit");
    }

    @Test
    void aSinkThatCannotCommitAbortsTheSource() {
        List<String> events = new ArrayList<>();
        StreamJob job = StreamJob.named("sink-commit-fails");
        job.source(recording(events)).sink(sink(events, -1, true));
        JobFailedException e = catchThrowableOfType(JobFailedException.class, job::run);

        assertThat(e).hasMessageContaining("cannot commit");
        assertThat(events).contains("source abort").doesNotContain("source commit");
    }
}
