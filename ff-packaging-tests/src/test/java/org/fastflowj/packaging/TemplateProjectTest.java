package org.fastflowj.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * template/ as a user gets it: a fresh copy built by Maven against this build's artifacts, then its
 * examples run in one process and its two groups through the launcher jar.
 *
 * <p>The build runs offline ({@code mvn -o}) on a throw-away local repository ({@link LocalRepository}):
 * seeded from the repository this build resolved from, which holds every plugin and library the template
 * needs, plus this build's FastFlow-J jars and poms, installed by hand the way {@code mvn install} lays
 * them out. So the test needs no network, never writes FastFlow-J into the shared repository, and builds
 * the template against exactly the jars under test, not a stale install.
 */
@Timeout(180)
class TemplateProjectTest {
    private static final String SUM_OF_SQUARES = "333833500"; // 1² + ... + 1000²
    private static final Pattern PROPERTY = Pattern.compile("<([\\w.-]+\\.version)>([^<]+)</\\1>");

    @TempDir
    static Path work;

    private static Path app;
    private static Path appJar;

    @BeforeAll
    @Timeout(240)
    static void buildTheTemplateFromAFreshCopy() throws Exception {
        Optional<Path> mvn = ChildProcess.onPath("mvn");
        if (mvn.isEmpty()) {
            BuiltArtifacts.skip("mvn is not on the PATH: the template's build cannot be tested here");
        }
        Path core = BuiltArtifacts.jarOf("ff-core", "org.fastflowj.core.Node");
        Path dist = BuiltArtifacts.jarOf("ff-dist", "org.fastflowj.dist.DFF");
        BuiltArtifacts.launcherJar();

        String version = BuiltArtifacts.VERSION;
        LocalRepository repo = LocalRepository.seededFrom(
                        Path.of(System.getProperty("fastflowj.seedRepository")), work.resolve("repository"))
                .install("fastflow-j", version, BuiltArtifacts.pom(""), null)
                .install("ff-bom", version, BuiltArtifacts.pom("ff-bom"), null)
                .install("ff-core", version, BuiltArtifacts.pom("ff-core"), core)
                .install("ff-dist", version, BuiltArtifacts.pom("ff-dist"), dist);

        app = work.resolve("ff-app");
        TemplateCopy.fresh(BuiltArtifacts.ROOT.resolve("template"), app);
        ChildProcess build = ChildProcess.run(
                app,
                Map.of("MAVEN_OPTS", "-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"),
                150,
                List.of(
                        mvn.get().toString(),
                        "-B",
                        "-o",
                        "-q",
                        "-Dmaven.repo.local=" + repo.root(),
                        "-Dfastflowj.version=" + version,
                        "-DskipTests",
                        "package"));
        assertThat(build.exitCode()).as(build.describe()).isZero();
        appJar = app.resolve("target/ff-app.jar");
        assertThat(appJar).as(build.describe()).isRegularFile();
    }

    @Test
    void shouldPinTheReactorsVersionAndPluginVersions() throws IOException {
        Map<String, String> template = versions(BuiltArtifacts.ROOT.resolve("template/pom.xml"));
        Map<String, String> parent = versions(BuiltArtifacts.pom(""));

        assertThat(template).containsEntry("fastflowj.version", BuiltArtifacts.VERSION);
        // The same versions as the reactor's: the offline build finds exactly these in the seed repository.
        template.forEach((key, value) -> {
            if (!key.equals("fastflowj.version")) {
                assertThat(parent).as("template/pom.xml's " + key).containsEntry(key, value);
            }
        });
    }

    @Test
    void shouldEnableNativeAccessInItsJarSoNettysNativeTransportLoadsWithoutAWarning() throws IOException {
        try (JarFile jar = new JarFile(appJar.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Main-Class")).isEqualTo("org.example.app.App");
            assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
        }
    }

    @Test
    void shouldRunThePipelineAndTheFarmInOneProcess() throws Exception {
        ChildProcess pipeline = runApp("pipeline");
        ChildProcess farm = runApp("farm");

        assertThat(pipeline.out()).as(pipeline.describe()).isEqualTo("pipeline: 27 letters\n");
        assertThat(farm.out()).as(farm.describe()).isEqualTo("farm: sum of squares = " + SUM_OF_SQUARES + "\n");
        assertThat(pipeline.err() + farm.err()).doesNotContain("SLF4J");
    }

    @Test
    void shouldRunTheTwoGroupsWholeInOneProcess() throws Exception {
        ChildProcess whole = runApp("groups");

        assertThat(whole.out()).as(whole.describe()).isEqualTo("groups: sum of squares = " + SUM_OF_SQUARES + "\n");
        assertThat(whole.err())
                .as(whole.describe())
                .contains(" INFO  - [main] org.example.app.TwoGroups - the whole program ended");
    }

    @Test
    void shouldMatchItsConfigInTheLaunchersCheck() throws Exception {
        ChildProcess check = launcher("check", "-c", app.resolve("app.json").toString());

        assertThat(check.exitCode()).as(check.describe()).isZero();
        assertThat(check.out()).as(check.describe()).contains("the program's groups [G1, G2] match");
    }

    @Test
    void shouldRunTheTwoGroupsThroughTheLauncher() throws Exception {
        Path config = LoopbackConfig.onFreePorts(app.resolve("app.json"), work.resolve("app-free-ports.json"));
        ChildProcess run = launcher("run", "--no-status", "--timeout", "90s", "-c", config.toString());

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.out()).as(run.describe()).contains("[G2] groups: sum of squares = " + SUM_OF_SQUARES + "\n");
        assertThat(run.out()).as(run.describe()).doesNotContain("[G1] groups:");
        // logback.xml's third column is the group that logged the line.
        assertThat(run.err())
                .as(run.describe())
                .containsPattern("(?m)^\\[G1\\] \\S+ INFO  G1 \\[main\\] org.example.app.TwoGroups - group G1 ended$")
                .containsPattern("(?m)^\\[G2\\] \\S+ INFO  G2 \\[main\\] org.example.app.TwoGroups - group G2 ended$")
                .doesNotContain("SLF4J");
    }

    /** {@code java -jar ff-launcher.jar <options> -- java -jar ff-app.jar groups}. */
    private static ChildProcess launcher(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                BuiltArtifacts.java().toString(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                BuiltArtifacts.launcherJar().toString()));
        command.addAll(List.of(options));
        command.add("--");
        command.addAll(appCommand("groups"));
        return ChildProcess.run(app, Map.of(), 120, command);
    }

    private static ChildProcess runApp(String example) throws Exception {
        return ChildProcess.run(app, Map.of(), 60, appCommand(example));
    }

    private static List<String> appCommand(String example) {
        return List.of(
                BuiltArtifacts.java().toString(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                appJar.toString(),
                example);
    }

    private static Map<String, String> versions(Path pom) throws IOException {
        Map<String, String> versions = new java.util.LinkedHashMap<>();
        Matcher m = PROPERTY.matcher(Files.readString(pom));
        while (m.find()) {
            versions.put(m.group(1), m.group(2));
        }
        return versions;
    }
}
