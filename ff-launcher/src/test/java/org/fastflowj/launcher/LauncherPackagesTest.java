package org.fastflowj.launcher;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher's packages form layers: {@code hosts} at the bottom, {@code report} on it, {@code process}
 * on both, {@code commands} on top; the root's shared helpers sit below every sub-package, and only
 * {@code Main} reaches up to the commands. docs/architecture.md, "Map of packages", lists them.
 */
@Timeout(120)
class LauncherPackagesTest {
    private static final String ROOT = "org.fastflowj.launcher";
    private static final String COMMANDS = ROOT + ".commands..";
    private static final String HOSTS = ROOT + ".hosts..";
    private static final String PROCESS = ROOT + ".process..";
    private static final String REPORT = ROOT + ".report..";

    private static JavaClasses launcher;

    @BeforeAll
    static void importMainClasses() {
        launcher = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void subpackagesFormNoCycle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(launcher);
    }

    @Test
    void hostsDependOnNoOtherPackageOfTheLauncher() {
        noClasses()
                .that()
                .resideInAPackage(HOSTS)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(ROOT, COMMANDS, PROCESS, REPORT)
                .check(launcher);
    }

    @Test
    void reportsDependOnNeitherTheCommandsNorTheProcesses() {
        noClasses()
                .that()
                .resideInAPackage(REPORT)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(COMMANDS, PROCESS)
                .check(launcher);
    }

    @Test
    void processesDependOnNoCommand() {
        noClasses()
                .that()
                .resideInAPackage(PROCESS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(COMMANDS)
                .check(launcher);
    }

    @Test
    void theRootsSharedHelpersDependOnNoSubpackage() {
        noClasses()
                .that()
                .resideInAPackage(ROOT)
                .and(not(belongToAnyOf(Main.class)))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(COMMANDS, HOSTS, PROCESS, REPORT)
                .check(launcher);
    }

    @Test
    void theRulesSeeTheClassesTheyJudge() {
        // A rule over an empty import passes whatever the code does: make sure each package was read.
        for (String pkg :
                new String[] {ROOT, ROOT + ".commands", ROOT + ".hosts", ROOT + ".process", ROOT + ".report"}) {
            assertThat(launcher.stream().filter(c -> c.getPackageName().equals(pkg)))
                    .as(pkg)
                    .isNotEmpty();
        }
        assertThat(launcher.stream()
                        .filter(c -> c.getPackageName().equals(ROOT)
                                && !belongToAnyOf(Main.class).test(c)))
                .as("the root's helpers besides Main")
                .isNotEmpty();
    }
}
