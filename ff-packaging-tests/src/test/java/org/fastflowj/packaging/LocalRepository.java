package org.fastflowj.packaging;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A throw-away Maven local repository for building the template offline: everything of the repository
 * this build resolved from (its plugins and third-party libraries are what the template needs), plus
 * this build's FastFlow-J artifacts, laid out as {@code mvn install} would lay them out. The shared
 * repository never sees a FastFlow-J artifact, and the build is offline, so it reaches no network.
 *
 * <p>The seed's files are hard links where the file system allows (instant, no space; Maven replaces a
 * file by renaming a new one over it, so the seed's copy is never written), copies elsewhere.
 */
final class LocalRepository {
    private static final String OWN_GROUP = "org/fastflowj";

    private final Path root;

    private LocalRepository(Path root) {
        this.root = root;
    }

    static LocalRepository seededFrom(Path seed, Path root) throws IOException {
        if (!Files.isDirectory(seed)) {
            throw new AssertionError("the seed repository " + seed + " is not a directory (fastflowj.seedRepository)");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(seed)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            Path relative = seed.relativize(file);
            if (relative.toString().startsWith(OWN_GROUP + "/")) {
                continue; // an earlier install of FastFlow-J must not stand in for this build's
            }
            Path target = root.resolve(relative.toString());
            Files.createDirectories(target.getParent());
            link(file, target);
        }
        return new LocalRepository(root);
    }

    private static void link(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Installs a FastFlow-J artifact: its pom, and its jar unless {@code jar} is null (a pom-only artifact). */
    LocalRepository install(String artifactId, String version, Path pom, Path jar) throws IOException {
        Path dir = root.resolve(OWN_GROUP).resolve(artifactId).resolve(version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifactId + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
        return this;
    }

    Path root() {
        return root;
    }
}
