package org.fastflowj.examples.imagefilter;

import java.nio.file.Path;
import java.util.List;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Fig. 7 of the 2012 paper: a pipeline of two farms over a stream of images, blur then emboss.
 *
 * <pre>
 *   ┌───────────── G1 ─────────────┐   ┌───────────── G2 ──────────────┐
 *   reader ──▶ farm(blur x k) ──────────▶ farm(emboss x k) ──▶ writer
 * </pre>
 */
public final class ImageFilter {
    private ImageFilter() {}

    public static Pipeline build(List<Path> inputs, Path outputFolder, int workers) {
        return build(inputs, new ImageWriter(outputFolder), workers);
    }

    static Pipeline build(List<Path> inputs, ImageWriter writer, int workers) {
        ImageReader reader = new ImageReader(inputs);
        Farm blur = Farm.of(workers, () -> Node.of(Filters::blur)).onDemand();
        Farm emboss = Farm.of(workers, () -> Node.of(Filters::emboss)).onDemand();
        Pipeline pipe = new Pipeline(reader, blur, emboss, writer);
        pipe.createGroup("G1").include(reader).include(blur);
        pipe.createGroup("G2").include(emboss).include(writer);
        return pipe;
    }
}
