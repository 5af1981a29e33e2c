package org.fastflowj.examples.wordcount;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;

/**
 * How the word count's nodes write their tables into a checkpoint, compactly and without Java
 * serialization: a size before what it counts, a word as its length then 1 to 3 bytes per UTF-16 unit
 * (any {@code char} sequence reads back as it was, lone surrogates included, and ASCII costs a byte), a
 * count or a length as a variable-length integer (7 bits a byte: most counts are small).
 */
final class WordState {
    private WordState() {}

    /** {@code words}: their number, then each word and its count. */
    static void writeWords(Map<String, Long> words, DataOutput out) throws IOException {
        writeCount(words.size(), out);
        for (Map.Entry<String, Long> e : words.entrySet()) {
            writeWord(e.getKey(), out);
            writeCount(e.getValue(), out);
        }
    }

    /** Puts the words {@link #writeWords} wrote into {@code words}. */
    static void readWords(DataInput in, Map<String, Long> words) throws IOException {
        long size = readCount(in);
        for (long i = 0; i < size; i++) {
            String word = new String(readWord(in));
            words.put(word, readCount(in));
        }
    }

    static void writeWord(CharSequence word, DataOutput out) throws IOException {
        int length = word.length();
        writeCount(length, out);
        for (int i = 0; i < length; i++) {
            writeUnit(word.charAt(i), out);
        }
    }

    static void writeWord(char[] word, DataOutput out) throws IOException {
        writeCount(word.length, out);
        for (char c : word) {
            writeUnit(c, out);
        }
    }

    private static void writeUnit(char c, DataOutput out) throws IOException {
        if (c < 0x80) {
            out.writeByte(c);
        } else if (c < 0x800) {
            out.writeByte(0xC0 | c >> 6);
            out.writeByte(0x80 | c & 0x3F);
        } else {
            out.writeByte(0xE0 | c >> 12);
            out.writeByte(0x80 | c >> 6 & 0x3F);
            out.writeByte(0x80 | c & 0x3F);
        }
    }

    static char[] readWord(DataInput in) throws IOException {
        long length = readCount(in);
        if (length > Integer.MAX_VALUE) {
            throw new IOException("a word of " + length + " characters: not a word count's state");
        }
        char[] word = new char[(int) length];
        for (int i = 0; i < word.length; i++) {
            int b = in.readUnsignedByte();
            if (b < 0x80) {
                word[i] = (char) b;
            } else if (b < 0xE0) {
                word[i] = (char) ((b & 0x1F) << 6 | in.readUnsignedByte() & 0x3F);
            } else {
                word[i] =
                        (char) ((b & 0x0F) << 12 | (in.readUnsignedByte() & 0x3F) << 6 | in.readUnsignedByte() & 0x3F);
            }
        }
        return word;
    }

    /** A non-negative {@code n}, 7 bits a byte, low bits first. */
    static void writeCount(long n, DataOutput out) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("a count cannot be negative, got " + n);
        }
        while (n >= 0x80) {
            out.writeByte((int) (n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.writeByte((int) n);
    }

    static long readCount(DataInput in) throws IOException {
        long n = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            n |= (long) (b & 0x7F) << shift;
            if (b < 0x80) {
                return n;
            }
        }
        throw new IOException("a count longer than 10 bytes: not a word count's state");
    }
}
