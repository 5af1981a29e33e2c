package org.fastflowj.core.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An out-of-memory on a node thread halts the JVM promptly, saying so and naming the node: never a hang. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FatalErrorsTest {
    @TempDir
    Path dir;

    @Test
    void shouldHaltWithStatus3NamingTheNodeThatRanOutOfMemory() throws Exception {
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx32m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MemoryHog.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            long started = System.nanoTime();
            boolean exited = child.waitFor(30, TimeUnit.SECONDS);
            String output = Files.readString(log);

            assertThat(exited)
                    .as("still running after 30 s (a hang after the OOM?):\n" + output)
                    .isTrue();
            assertThat(child.exitValue()).as(output).isEqualTo(FatalErrors.EXIT_STATUS);
            String hog = output.replaceAll("(?s).*hog thread: (\\S+).*", "$1");
            assertThat(output)
                    .contains("out of memory in node " + hog + ": java.lang.OutOfMemoryError")
                    .contains("halting the JVM (exit status 3)")
                    .doesNotContain("main ended");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started))
                    .isLessThan(30);
        } finally {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldTellAnOutOfMemoryFromAStackOverflowAndFindItUnderOtherExceptions() {
        RuntimeException wrapped = new RuntimeException("svc: boom", new OutOfMemoryError("Java heap space"));

        assertThat(FatalErrors.isFatal(wrapped)).isTrue();
        assertThat(FatalErrors.isFatal(new IllegalStateException(new AssertionError("no"))))
                .isFalse();
        assertThat(FatalErrors.report("node sink", wrapped))
                .isEqualTo("out of memory in node sink: java.lang.OutOfMemoryError: Java heap space;"
                        + " halting the JVM (exit status 3)");
        assertThat(FatalErrors.isFatal(new RuntimeException(new StackOverflowError())))
                .as("a stack overflow has unwound: it fails the run, it does not halt the JVM")
                .isFalse();
    }

    @Test
    void shouldFailTheRunNotHaltTheJvmWhenANodeOverflowsItsStack() {
        Node<Void, Integer> source = new Node<>() {
            @Override
            protected Integer svc(Void none) {
                sendOut(1);
                return eos();
            }
        };
        Node<Integer, Void> deep = new Node<>() {
            @Override
            protected Void svc(Integer depth) {
                return recurse(depth);
            }

            private Void recurse(int depth) {
                return depth < 0 ? null : recurse(depth + 1);
            }
        };

        Throwable failure =
                org.assertj.core.api.Assertions.catchThrowable(() -> new Pipeline(source, deep).runAndWaitEnd());

        assertThat(failure).isInstanceOf(org.fastflowj.core.NodeFailedException.class);
        assertThat(failure).hasRootCauseInstanceOf(StackOverflowError.class);
        assertThat(FatalErrors.halting()).isFalse();
    }

    /** A source and a node that keeps everything it gets: it runs out of heap, the JVM must not hang. */
    public static final class MemoryHog {
        public static void main(String[] args) {
            // The source allocates nothing (one boxed value, sent again and again), so the hog is the one
            // thread whose allocation fails: the test can then name it.
            Integer tick = 1;
            Node<Void, Integer> source = new Node<>() {
                @Override
                protected Integer svc(Void none) {
                    return tick;
                }
            };
            List<long[]> kept = new ArrayList<>();
            Node<Integer, Void> hog = new Node<>() {
                @Override
                protected void svcInit() {
                    System.out.println("hog thread: " + Thread.currentThread().getName());
                }

                @Override
                protected Void svc(Integer item) {
                    kept.add(new long[1024]);
                    return goOn();
                }
            };
            new Pipeline(source, hog).runAndWaitEnd();
            System.out.println("main ended");
        }
    }
}
