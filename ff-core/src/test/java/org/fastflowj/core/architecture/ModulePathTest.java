package org.fastflowj.core.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ff-core as a named module, as a user's modular program sees it: the program runs a pipeline through
 * the exported API, and the engine packages stay closed to it, when it compiles and when it runs.
 * The rest of the suite runs on the class path.
 */
@Timeout(180)
class ModulePathTest {
    private static final String MODULE_INFO = "module demo { requires org.fastflowj.core; }";

    /** Runs a pipeline, then tries to reach the engine reflectively; prints what happened. */
    private static final String PROGRAM =
            """
            package demo;

            import java.util.concurrent.atomic.AtomicLong;
            import java.util.stream.IntStream;
            import org.fastflowj.core.Node;
            import org.fastflowj.core.Pipeline;

            public class Main {
                public static void main(String[] args) throws Exception {
                    AtomicLong sum = new AtomicLong();
                    new Pipeline(
                                    Node.source(IntStream.rangeClosed(1, 1000).boxed().toList()),
                                    Node.<Integer, Long>of(x -> 2L * x),
                                    Node.<Long>sink(sum::addAndGet))
                            .runAndWaitEnd();
                    System.out.println("sum=" + sum.get());
                    System.out.println("module=" + Node.class.getModule().getName());
                    try {
                        Class<?> engine = Class.forName("org.fastflowj.core.runtime.LocalEngine");
                        engine.getConstructor().newInstance();
                        System.out.println("engine=reached");
                    } catch (IllegalAccessException | IllegalAccessError e) {
                        System.out.println("engine=closed " + e.getClass().getSimpleName());
                    }
                }
            }
            """;

    /** Uses an engine class directly: must not compile. */
    private static final String INTRUDER =
            """
            package demo;

            public class Intruder {
                Object graph = org.fastflowj.core.runtime.Executor.class;
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aModularProgramRunsAPipelineAndCannotReachTheEngine() throws Exception {
        String modulePath = modulePath();
        Path out = dir.resolve("demo-classes");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = compile(
                modulePath,
                out,
                diagnostics,
                source("module-info.java", MODULE_INFO),
                source("demo/Main.java", PROGRAM));
        assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        List<String> command = new ArrayList<>(List.of(
                javaBin(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "--module-path",
                modulePath + File.pathSeparator + out,
                "--module",
                "demo/demo.Main"));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            child.getOutputStream().close();
            boolean ended = child.waitFor(120, TimeUnit.SECONDS);
            output = readAll(child.getInputStream(), ended);
            assertThat(ended)
                    .as("the modular program did not end in 120 s: " + output)
                    .isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output)
                .as("pipeline result")
                .contains("sum=1001000") // 2 * (1 + ... + 1000)
                .contains("module=org.fastflowj.core")
                .contains("engine=closed IllegalAccessException");
    }

    @Test
    void aModularProgramCannotCompileAgainstTheEngine() throws Exception {
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = compile(
                modulePath(),
                dir.resolve("intruder-classes"),
                diagnostics,
                source("module-info.java", MODULE_INFO),
                source("demo/Intruder.java", INTRUDER));
        String messages = diagnostics.toString(StandardCharsets.UTF_8);
        assertThat(status).as(messages).isNotZero();
        assertThat(messages).contains("org.fastflowj.core.runtime").contains("is not visible");
    }

    /** ff-core's classes (a module: they hold module-info.class) and the modules it requires. */
    private static String modulePath() {
        List<String> entries = new ArrayList<>();
        entries.add(Path.of(Node.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .getPath())
                .toString());
        List<String> needed = List.of("jctools-core", "slf4j-api");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (needed.stream().anyMatch(name::startsWith) && name.endsWith(".jar")) {
                entries.add(entry);
            }
        }
        assertThat(entries)
                .as("ff-core's module and its dependencies on this class path")
                .hasSize(3);
        return String.join(File.pathSeparator, entries);
    }

    private int compile(String modulePath, Path out, ByteArrayOutputStream diagnostics, Path... sources)
            throws IOException {
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(
                List.of("--release", "17", "--module-path", modulePath, "-d", out.toString(), "-proc:none"));
        args.addAll(Arrays.stream(sources).map(Path::toString).collect(Collectors.toList()));
        return javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    }

    private Path source(String relative, String text) throws IOException {
        Path file = dir.resolve("src").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String readAll(InputStream in, boolean ended) {
        try {
            // The child has ended (or is about to be destroyed): its output is all there is.
            return ended ? new String(in.readAllBytes(), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
