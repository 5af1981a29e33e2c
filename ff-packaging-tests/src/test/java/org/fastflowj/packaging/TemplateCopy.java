package org.fastflowj.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/** A fresh copy of template/, as a user would make it. */
final class TemplateCopy {
    private TemplateCopy() {}

    /** The template's files, not whatever a build in place left there (target/). */
    static void fresh(Path template, Path copy) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(template)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            Path relative = template.relativize(file);
            if (relative.startsWith("target")) {
                continue;
            }
            Path target = copy.resolve(relative.toString());
            Files.createDirectories(target.getParent());
            Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
    }
}
