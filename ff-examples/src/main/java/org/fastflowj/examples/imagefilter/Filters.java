package org.fastflowj.examples.imagefilter;

/**
 * The two 3x3 filters of the pipeline, in integer arithmetic (so every run gives the same pixels) on the
 * red, green and blue channels; alpha is kept. Pixels outside the image repeat the nearest edge pixel.
 */
final class Filters {
    /** Box blur: the mean of the 3x3 neighbourhood, rounded down. */
    static final int[] BLUR = {1, 1, 1, 1, 1, 1, 1, 1, 1};

    static final int BLUR_DIVISOR = 9;

    /** Emboss: light from the top left; the result is offset by 0 and clamped to 0..255. */
    static final int[] EMBOSS = {-2, -1, 0, -1, 1, 1, 0, 1, 2};

    private Filters() {}

    static Image blur(Image image) {
        return convolve(image, BLUR, BLUR_DIVISOR);
    }

    static Image emboss(Image image) {
        return convolve(image, EMBOSS, 1);
    }

    static Image convolve(Image image, int[] kernel, int divisor) {
        int w = image.width();
        int h = image.height();
        int[] in = image.argb();
        int[] out = new int[in.length];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int r = 0;
                int g = 0;
                int b = 0;
                for (int dy = -1; dy <= 1; dy++) {
                    int row = Math.min(h - 1, Math.max(0, y + dy)) * w;
                    for (int dx = -1; dx <= 1; dx++) {
                        int p = in[row + Math.min(w - 1, Math.max(0, x + dx))];
                        int k = kernel[(dy + 1) * 3 + dx + 1];
                        r += k * ((p >>> 16) & 0xff);
                        g += k * ((p >>> 8) & 0xff);
                        b += k * (p & 0xff);
                    }
                }
                int alpha = in[y * w + x] & 0xff000000;
                out[y * w + x] = alpha | clamp(r / divisor) << 16 | clamp(g / divisor) << 8 | clamp(b / divisor);
            }
        }
        return new Image(image.name(), w, h, out);
    }

    private static int clamp(int v) {
        return Math.max(0, Math.min(255, v));
    }
}
