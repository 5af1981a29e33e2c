package org.fastflowj.examples.imagefilter;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.fastflowj.core.Node;
import org.fastflowj.examples.InputException;

/**
 * Sink: writes each filtered image as a PNG (lossless) named after its input, the extension replaced:
 * {@code photo.jpg -> photo.png}, {@code img0.png -> img0.png}.
 */
final class ImageWriter extends Node<Image, Void> {
    private final Path folder;
    private int written;

    ImageWriter(Path folder) {
        this.folder = folder;
    }

    @Override
    protected Void svc(Image image) throws IOException {
        BufferedImage out = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_INT_ARGB);
        out.setRGB(0, 0, image.width(), image.height(), image.argb(), 0, image.width());
        Path file = folder.resolve(pngName(image.name()));
        try {
            ImageIO.write(out, "png", file.toFile());
        } catch (IOException e) {
            throw new InputException(file + ": cannot write: " + e.getMessage(), e);
        }
        written++;
        return goOn();
    }

    /** {@code name} with its extension, if any, replaced by {@code .png}. */
    static String pngName(String name) {
        int dot = name.lastIndexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name) + ".png";
    }

    /** The images written; read after the run, which joined the writer's thread. */
    int written() {
        return written;
    }
}
