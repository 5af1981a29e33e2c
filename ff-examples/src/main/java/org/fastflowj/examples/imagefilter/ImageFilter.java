package org.fastflowj.examples.imagefilter;

import java.nio.file.Path;
import java.util.List;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Fig. 7 of the 2012 paper: a pipeline of two farms over a stream of images, blur then emboss.
 *
 * <pre>
 *   ┌───────────── G1 ─────────────┐   ┌───────────── G2 ──────────────┐
 *   reader ──▶ farm(blur x k) ──────────▶ farm(emboss x k) ──▶ writer
 * </pre>
 *
 * With {@code spreadBlur} the second half of the blur workers runs in a group of its own, G3 (a farm's
 * workers across groups): the blur farm's emitter sends them images over the network and its results
 * come back the same way, to the emboss farm in G2.
 */
public final class ImageFilter {
    private ImageFilter() {}

    public static Pipeline build(List<Path> inputs, Path outputFolder, int workers) {
        return build(inputs, new ImageWriter(outputFolder), workers, false);
    }

    static Pipeline build(List<Path> inputs, ImageWriter writer, int workers, boolean spreadBlur) {
        ImageReader reader = new ImageReader(inputs);
        Farm blur = Farm.of(workers, () -> Node.of(Filters::blur)).onDemand();
        Farm emboss = Farm.of(workers, () -> Node.of(Filters::emboss)).onDemand();
        Pipeline pipe = new Pipeline(reader, blur, emboss, writer);
        pipe.createGroup("G1").include(reader).include(blur);
        pipe.createGroup("G2").include(emboss).include(writer);
        if (spreadBlur) {
            Group remoteBlur = blur.createGroup("G3");
            blur.workers().subList(workers / 2, workers).forEach(remoteBlur::include);
        }
        return pipe;
    }
}
