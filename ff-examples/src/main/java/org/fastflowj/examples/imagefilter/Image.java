package org.fastflowj.examples.imagefilter;

/**
 * An image in the stream: the name of its file and its pixels, ARGB, row-major. Crosses groups with
 * {@link ImageSerializer} (the pixels in one bulk copy).
 */
public record Image(String name, int width, int height, int[] argb) {
    public Image {
        if (argb.length != width * height) {
            throw new IllegalArgumentException(name + ": " + argb.length + " pixels for " + width + "x" + height);
        }
    }
}
