package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache folder: the user's own private directory, checked without following links, or no cache at all. */
class LauncherCacheTest {
    private static final String ME = System.getProperty("user.name");

    @TempDir
    Path dir;

    private final StringWriter warnings = new StringWriter();

    @Test
    void shouldCreateAMissingFolderWithModeOwnerOnly() throws Exception {
        Path folder = dir.resolve("fastflowj-" + ME);

        assertThat(cache(folder).directory()).contains(folder);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
        assertThat(warnings.toString()).isEmpty();
    }

    @Test
    void shouldTreatAFolderOthersCanReadAsAbsentWithAWarning() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("fastflowj-" + ME));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertAbsent(folder, "has mode rwxr-xr-x; expected rwx------");
    }

    @Test
    void shouldTreatAFolderOfAnotherUserAsAbsentWithAWarning() throws Exception {
        assumeTrue(ME.equals("root"), "only root can give a folder to another user");
        Path folder = Files.createDirectory(dir.resolve("fastflowj-" + ME));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(
                folder, folder.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));

        assertAbsent(folder, "belongs to nobody; expected root");
    }

    @Test
    void shouldTreatALinkToAPrivateFolderOfTheUserAsAbsentWithAWarning() throws Exception {
        Path target = Files.createDirectory(
                dir.resolve("elsewhere"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path folder = Files.createSymbolicLink(dir.resolve("fastflowj-" + ME), target);

        assertAbsent(folder, "is a symbolic link");
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void shouldTreatAFolderInAParentAnyoneCanWriteWithoutTheStickyBitAsAbsent() throws Exception {
        Path parent = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path folder = parent.resolve("fastflowj-" + ME);

        assertAbsent(folder, "which others can write and which has no sticky bit");
    }

    @Test
    void shouldKeepNoGroupsInAFolderThatIsNotTheUsersOwn() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("fastflowj-" + ME));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path jar = Files.writeString(dir.resolve("app.jar"), "not really a jar");

        assertThat(GroupCheckCache.of(
                        List.of("java", "-cp", jar.toString(), "app.Main"), dir.resolve("app.json"), cache(folder)))
                .isEmpty();
        assertThat(CdsArchive.automatic(List.of("java", "-cp", jar.toString(), "app.Main"), cache(folder)))
                .isEmpty();
        assertThat(folder).isEmptyDirectory();
    }

    private void assertAbsent(Path folder, String why) {
        LauncherCache cache = cache(folder);

        assertThat(cache.directory()).isEmpty();
        assertThat(cache.directory()).as("checked again, still refused").isEmpty();

        assertThat(warnings.toString())
                .as("one warning naming the folder and the reason")
                .startsWith("ff-launcher: warning: the cache folder " + folder + " ")
                .contains(why)
                .contains("running without a cache");
        assertThat(warnings.toString().lines()).hasSize(1);
    }

    private LauncherCache cache(Path folder) {
        return new LauncherCache(folder, ME, new PrintWriter(warnings, true));
    }
}
