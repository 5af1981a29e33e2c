package org.fastflowj.examples.imagefilter;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.fastflowj.core.Node;
import org.fastflowj.examples.InputException;

/** Source: decodes each image file (PNG, JPEG, GIF: javax.imageio) and sends out its pixels, in file-name order. */
final class ImageReader extends Node<Void, Image> {
    private final List<Path> files;

    ImageReader(List<Path> files) {
        this.files = List.copyOf(files);
    }

    @Override
    protected Image svc(Void none) {
        for (Path file : files) {
            sendOut(read(file));
        }
        return eos();
    }

    static Image read(Path file) {
        BufferedImage image;
        try {
            image = ImageIO.read(file.toFile());
        } catch (IOException | RuntimeException e) {
            throw new InputException(file + ": malformed image: " + e.getMessage(), e);
        }
        if (image == null) {
            throw new InputException(file + ": not an image javax.imageio can decode");
        }
        int w = image.getWidth();
        int h = image.getHeight();
        return new Image(file.getFileName().toString(), w, h, image.getRGB(0, 0, w, h, null, 0, w));
    }
}
