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
 * optimize}, {@code metrics}, {@code runtime}) on both. docs/architecture.md, "Packages", draws it.
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

    @Test
    void theRulesSeeTheClassesTheyJudge() {
        // A rule over an empty import passes whatever the code does: make sure each layer was read.
        for (String pkg : new String[] {
            "org.fastflowj.core",
            "org.fastflowj.core.spi",
            "org.fastflowj.core.runtime",
            "org.fastflowj.core.runtime.queue",
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
