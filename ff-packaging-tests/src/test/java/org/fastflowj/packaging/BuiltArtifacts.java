package org.fastflowj.packaging;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

/**
 * This build's artifacts, as the reactor hands them to this module: each module's jar once the package
 * phase has run (the launcher's and the examples' are their runnable, shaded jars), and each module's
 * pom from the source tree. In a build that stops before package ({@code mvn test}) the class path holds
 * class folders instead: the tests that need jars skip, saying so.
 */
final class BuiltArtifacts {
    static final Path ROOT =
            Path.of(System.getProperty("fastflowj.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("fastflowj.version", "");

    private BuiltArtifacts() {}

    /**
     * The jar of {@code module} (named {@code module.jar} or {@code module-VERSION.jar}) that holds {@code
     * className}; skips the test when the module is only a class folder. Several jars may hold the class
     * (the shaded ones hold their dependencies): the module's own is picked by its name.
     */
    static Path jarOf(String module, String className) {
        String resource = className.replace('.', '/') + ".class";
        List<URL> urls;
        try {
            urls = Collections.list(BuiltArtifacts.class.getClassLoader().getResources(resource));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (URL url : urls) {
            if (url.getProtocol().equals("file") && url.getPath().contains("/" + module + "/target/classes/")) {
                skip(module + " is a class folder here, not a jar: these tests need the packaged artifacts,"
                        + " run them with mvn verify");
            }
            if (url.getProtocol().equals("jar")) {
                Path jar = jarFile(url);
                String name = jar.getFileName().toString();
                if (name.equals(module + ".jar") || name.equals(module + "-" + VERSION + ".jar")) {
                    return jar;
                }
            }
        }
        throw new AssertionError("no jar of " + module + " holding " + className + " on the test class path, only "
                + urls + ": check this module's dependencies");
    }

    private static Path jarFile(URL url) {
        String path = url.getPath(); // file:/.../x.jar!/org/...
        try {
            return Path.of(new URI(path.substring(0, path.indexOf("!/"))));
        } catch (URISyntaxException e) {
            throw new AssertionError("cannot read the jar's location from " + url, e);
        }
    }

    /**
     * Skips the calling test, also saying why on stderr: Maven's summary counts skipped tests without
     * their reasons, and a skipped class (an assumption in a @BeforeAll) is not even counted.
     */
    static void skip(String why) {
        System.err.println("skipped: " + why);
        assumeTrue(false, why);
    }

    static Path launcherJar() {
        return jarOf("ff-launcher", "org.fastflowj.launcher.Main");
    }

    static Path examplesJar() {
        return jarOf("ff-examples", "org.fastflowj.examples.Main");
    }

    /** ff-bench's runnable jar, which its shade step writes beside the module's own (unshaded) jar. */
    static Path benchmarksJar() {
        jarOf("ff-bench", "org.fastflowj.bench.PipelineThroughput"); // skips when ff-bench is a class folder
        Path jar = ROOT.resolve("ff-bench/target/benchmarks.jar");
        if (!Files.isRegularFile(jar)) {
            skip(jar + " is not built: these tests need the packaged artifacts, run them with mvn verify");
        }
        return jar;
    }

    static Path pom(String module) {
        Path pom = module.isEmpty()
                ? ROOT.resolve("pom.xml")
                : ROOT.resolve(module).resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            throw new AssertionError("no pom at " + pom + ": fastflowj.root (" + ROOT + ") is not the repository root");
        }
        return pom;
    }

    static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
