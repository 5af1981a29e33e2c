package org.fastflowj.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ff-core's packages form layers with no cycle: the engine SPI at the bottom, the API ({@code
 * org.fastflowj.core}, {@code org.fastflowj.patterns}) on it, the engine ({@code graph}, {@code
 * optimize}, {@code metrics}, {@code runtime}) on both; inside the run-time, {@code queue}, {@code channel},
 * {@code recovery}, {@code control}, then {@code node} and {@code bridge}. docs/architecture.md, "Map of
 * packages", lists them.
 */
@Timeout(120)
class PackageLayersTest {
    private static JavaClasses ffCore;

    @BeforeAll
    static void importMainClasses() {
        ffCore = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.fastflowj.core", "org.fastflowj.patterns");
    }

    /** Every package is a slice, the API package {@code org.fastflowj.core} included. */
    private static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
            return "ff-core's packages";
        }
    };

    @Test
    void packagesFormNoCycle() {
        slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(ffCore);
    }

    @Test
    void subpackagesFormNoCycle() {
        slices().matching("org.fastflowj.core.(*)..").should().beFreeOfCycles().check(ffCore);
    }

    @Test
    void theApiSeesOnlyTheSpiOfTheEngine() {
        noClasses()
                .that()
                .resideInAnyPackage("org.fastflowj.core", "org.fastflowj.patterns")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.fastflowj.core.graph..",
                        "org.fastflowj.core.runtime..",
                        "org.fastflowj.core.optimize..",
                        "org.fastflowj.core.metrics..")
                .check(ffCore);
    }

    @Test
    void theSpiDependsOnNothingOfOurs() {
        noClasses()
                .that()
                .resideInAPackage("org.fastflowj.core.spi")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("org.fastflowj.core.spi", "java..")
                .check(ffCore);
    }

    @Test
    void theQueuesDependOnNothingElseOfTheRunTime() {
        noClasses()
                .that()
                .resideInAPackage("org.fastflowj.core.runtime.queue")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("org.fastflowj.core.runtime.queue", "org.jctools..", "java..")
                .check(ffCore);
    }

    /**
     * The run-time's packages, bottom up, each with the run-time packages it may use: {@code queue},
     * {@code channel}, {@code recovery}, {@code control}, then {@code node} and {@code bridge} side by
     * side, and the root package on all of them.
     */
    private static final String[][] RUN_TIME_LAYERS = {
        {"queue"},
        {"channel", "queue"},
        {"recovery"},
        {"control", "channel", "queue", "recovery"},
        {"node", "channel", "queue", "recovery", "control"},
        {"bridge", "channel", "queue", "control"},
    };

    private static final String[] RUN_TIME_PACKAGES = {"queue", "channel", "recovery", "control", "node", "bridge"};

    @Test
    void theRunTimePackagesFormLayers() {
        for (String[] layer : RUN_TIME_LAYERS) {
            java.util.List<String> allowed = java.util.List.of(layer);
            String[] others = java.util.Arrays.stream(RUN_TIME_PACKAGES)
                    .filter(p -> !allowed.contains(p))
                    .map(p -> "org.fastflowj.core.runtime." + p + "..")
                    .toArray(String[]::new);
            noClasses()
                    .that()
                    .resideInAPackage("org.fastflowj.core.runtime." + layer[0])
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(others)
                    .orShould()
                    .dependOnClassesThat()
                    .resideInAPackage("org.fastflowj.core.runtime")
                    .check(ffCore);
        }
    }

    @Test
    void theRulesSeeTheClassesTheyJudge() {
        // A rule over an empty import passes whatever the code does: make sure each layer was read.
        for (String pkg : new String[] {
            "org.fastflowj.core",
            "org.fastflowj.core.spi",
            "org.fastflowj.core.runtime",
            "org.fastflowj.core.runtime.queue",
            "org.fastflowj.core.runtime.channel",
            "org.fastflowj.core.runtime.recovery",
            "org.fastflowj.core.runtime.control",
            "org.fastflowj.core.runtime.node",
            "org.fastflowj.core.runtime.bridge",
            "org.fastflowj.core.graph",
            "org.fastflowj.core.optimize",
            "org.fastflowj.core.metrics",
            "org.fastflowj.patterns"
        }) {
            org.assertj.core.api.Assertions.assertThat(
                            ffCore.stream().filter(c -> c.getPackageName().equals(pkg)))
                    .as(pkg)
                    .isNotEmpty();
        }
    }
}
