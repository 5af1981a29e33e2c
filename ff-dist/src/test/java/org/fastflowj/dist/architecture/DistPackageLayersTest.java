package org.fastflowj.dist.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ff-dist's packages form layers with no cycle: the public API and config ({@code org.fastflowj.dist})
 * at the bottom, {@code serial} and {@code net} on it, {@code run} on all three. Inside {@code run}:
 * {@code run.recovery} and {@code run.link} at the bottom, {@code run.bridge} and {@code run.lifecycle}
 * on them and not on each other, the {@code run} package itself on all.
 */
@Timeout(120)
class DistPackageLayersTest {
    private static JavaClasses ffDist;

    @BeforeAll
    static void importMainClasses() {
        ffDist = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.fastflowj.dist");
    }

    @Test
    void packagesFormNoCycle() {
        assertThat(ffDist.stream().map(c -> c.getPackageName()).distinct())
                .contains(
                        "org.fastflowj.dist",
                        "org.fastflowj.dist.net",
                        "org.fastflowj.dist.run",
                        "org.fastflowj.dist.run.bridge",
                        "org.fastflowj.dist.run.lifecycle",
                        "org.fastflowj.dist.run.link",
                        "org.fastflowj.dist.run.recovery",
                        "org.fastflowj.dist.serial");
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(com.tngtech.archunit.core.domain.JavaClass javaClass) {
                        return SliceIdentifier.of(javaClass.getPackageName());
                    }

                    @Override
                    public String getDescription() {
                        return "ff-dist's packages";
                    }
                })
                .should()
                .beFreeOfCycles()
                .check(ffDist);
    }

    @Test
    void thePublicApiDependsOnNoEnginePackage() {
        noClasses()
                .that()
                .resideInAPackage("org.fastflowj.dist")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.fastflowj.dist.run..",
                        "org.fastflowj.dist.net..",
                        "org.fastflowj.dist.serial..",
                        "org.fastflowj.core.runtime..",
                        "org.fastflowj.core.graph..",
                        "io.netty..")
                .check(ffDist);
    }

    @Test
    void recoveryKnowsNothingOfTheRunsLinksAndTasks() {
        noClasses()
                .that()
                .resideInAPackage("org.fastflowj.dist.run.recovery")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.fastflowj.dist.run",
                        "org.fastflowj.dist.run.bridge",
                        "org.fastflowj.dist.run.lifecycle",
                        "org.fastflowj.dist.run.link",
                        "org.fastflowj.dist.net..",
                        "io.netty..")
                .check(ffDist);
    }

    @Test
    void linksKnowNothingElseOfTheRun() {
        dependsOnNone(
                "org.fastflowj.dist.run.link",
                "org.fastflowj.dist.run",
                "org.fastflowj.dist.run.bridge",
                "org.fastflowj.dist.run.lifecycle",
                "org.fastflowj.dist.run.recovery");
    }

    @Test
    void bridgeTasksKnowNeitherTheRunNorItsLifecycle() {
        dependsOnNone("org.fastflowj.dist.run.bridge", "org.fastflowj.dist.run", "org.fastflowj.dist.run.lifecycle");
    }

    @Test
    void theLifecycleKnowsNeitherTheRunNorTheBridgeTasks() {
        dependsOnNone("org.fastflowj.dist.run.lifecycle", "org.fastflowj.dist.run", "org.fastflowj.dist.run.bridge");
    }

    /** No class of {@code layer}, which must have some, depends on a class of {@code above}. */
    private static void dependsOnNone(String layer, String... above) {
        assertThat(ffDist.stream().filter(c -> c.getPackageName().equals(layer)))
                .as(layer)
                .isNotEmpty();
        noClasses()
                .that()
                .resideInAPackage(layer)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(above)
                .check(ffDist);
    }
}
