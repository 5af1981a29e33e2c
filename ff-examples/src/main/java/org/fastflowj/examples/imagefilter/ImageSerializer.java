package org.fastflowj.examples.imagefilter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;

/** An {@link Image} on the wire: name, width, height, then the pixels as one block of big-endian ints. */
final class ImageSerializer implements ItemSerializer<Image> {
    @Override
    public void write(Image image, WireOutput out) {
        byte[] name = image.name().getBytes(StandardCharsets.UTF_8);
        out.writeInt(name.length);
        out.writeBytes(name, 0, name.length);
        out.writeInt(image.width());
        out.writeInt(image.height());
        ByteBuffer pixels = ByteBuffer.allocate(image.argb().length * Integer.BYTES);
        pixels.asIntBuffer().put(image.argb());
        out.writeBytes(pixels);
    }

    @Override
    public Image read(WireInput in) {
        byte[] name = new byte[in.readInt()];
        in.readBytes(name, 0, name.length);
        int width = in.readInt();
        int height = in.readInt();
        ByteBuffer pixels = ByteBuffer.allocate(in.readableBytes());
        in.readBytes(pixels);
        pixels.flip();
        int[] argb = new int[pixels.remaining() / Integer.BYTES];
        pixels.asIntBuffer().get(argb);
        return new Image(new String(name, StandardCharsets.UTF_8), width, height, argb);
    }
}
