package org.fastflowj.dist.serial;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.patterns.crossing.CrossingParameters;

/**
 * Items a hostile peer could send, written as bytes without building them: an {@code ArrayList} of millions
 * of empty {@code HashMap}s is about two bytes per map on the wire and fifty on the heap.
 */
public final class CraftedItems {
    private CraftedItems() {}

    /**
     * Appends one item (tag, length, Kryo payload) that reads as an {@code ArrayList} of {@code maps} empty
     * {@code HashMap}s. The layout comes from the codec's own writing of one and of two maps: the list's class,
     * its count (Kryo's varint with a flag bit: "every element has the same class"), the maps' class once, then
     * the same bytes for every map.
     */
    public static void listOfEmptyMaps(int maps, ByteBuf out) {
        byte[] one = payloadOf(mapsList(1));
        byte[] two = payloadOf(mapsList(2));
        int element = two.length - one.length;
        int at = 0;
        while (one[at] == two[at]) {
            at++; // the first byte that differs is the count's
        }
        int flag = one[at] & 0x80;
        int countOfOne = one[at] & 0x3F; // small: one byte
        ByteBuf payload = Unpooled.buffer(one.length + 5 + maps * element);
        payload.writeBytes(one, 0, at);
        long value = maps - 1L + countOfOne;
        int first = (int) (value & 0x3F) | flag;
        value >>>= 6;
        payload.writeByte(value == 0 ? first : first | 0x40);
        while (value != 0) { // then 7 bits a byte, low first
            payload.writeByte((int) (value & 0x7F) | (value > 0x7F ? 0x80 : 0));
            value >>>= 7;
        }
        payload.writeBytes(one, at + 1, one.length - at - 1 - element);
        for (int i = 0; i < maps; i++) {
            payload.writeBytes(one, one.length - element, element);
        }
        out.writeByte(ItemCodec.KRYO_TAG).writeInt(payload.readableBytes()).writeBytes(payload);
        payload.release();
    }

    /**
     * Appends one item that reads as a macro data-flow task's parameters naming value {@code id} as one the
     * receiving group keeps, which it never got: written by a sender whose account says the receiver holds it.
     */
    public static void referenceToAValueNeverSent(long id, ByteBuf out) {
        ItemCodec sender = new ItemCodec(SerializationConfig.defaults());
        CrossingParameters parameters = new CrossingParameters(
                new Object[] {new double[4]}, new boolean[] {false}, new long[] {id}, new int[] {0});
        ByteBuf dropped = Unpooled.buffer();
        sender.write(parameters, dropped); // in full: the receiver never sees it
        dropped.release();
        sender.startBatch(); // a new batch: the class name is written again, as the receiver expects
        sender.write(parameters, out); // now a reference
    }

    private static List<Map<Object, Object>> mapsList(int n) {
        List<Map<Object, Object>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new HashMap<>());
        }
        return list;
    }

    private static byte[] payloadOf(Object item) {
        ByteBuf buf = Unpooled.buffer();
        new ItemCodec(SerializationConfig.defaults()).write(item, buf);
        byte[] payload = new byte[buf.readableBytes() - ItemCodec.HEADER_BYTES];
        buf.getBytes(ItemCodec.HEADER_BYTES, payload);
        buf.release();
        return payload;
    }
}
