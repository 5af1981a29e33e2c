package org.fastflowj.examples.wordcount;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/**
 * How the word count's nodes write their tables into a checkpoint, compactly and without Java
 * serialization: a block's length in bytes, then the number of words and each word and its count. A
 * word is its length then 1 to 3 bytes per UTF-16 unit (any {@code char} sequence reads back as it was,
 * lone surrogates included, and ASCII costs a byte); a count or a length is a variable-length integer (7
 * bits a byte: most counts are small). A block is encoded in an array of its own and handed over in one
 * write, since a {@code DataOutput} byte by byte would cost a call per character while the node waits.
 */
final class WordState {
    private WordState() {}

    /** {@code words} as one block. */
    static void writeWords(Map<String, Long> words, DataOutput out) throws IOException {
        Encoder block = new Encoder(words.size() * 16);
        block.count(words.size());
        for (Map.Entry<String, Long> e : words.entrySet()) {
            block.word(e.getKey());
            block.count(e.getValue());
        }
        block.writeTo(out);
    }

    /** Puts the words of a block {@link #writeWords} wrote into {@code words}. */
    static void readWords(DataInput in, Map<String, Long> words) throws IOException {
        Decoder block = Decoder.readFrom(in);
        long size = block.count();
        for (long i = 0; i < size; i++) {
            String word = new String(block.word());
            words.put(word, block.count());
        }
    }

    /** A block being encoded. */
    static final class Encoder {
        private byte[] bytes;
        private int length;

        Encoder(int expectedBytes) {
            bytes = new byte[Math.max(64, expectedBytes)];
        }

        /** A non-negative {@code n}, 7 bits a byte, low bits first. */
        void count(long n) {
            if (n < 0) {
                throw new IllegalArgumentException("a count cannot be negative, got " + n);
            }
            room(10);
            byte[] b = bytes;
            int at = length;
            while (n >= 0x80) {
                b[at++] = (byte) (n & 0x7F | 0x80);
                n >>>= 7;
            }
            b[at++] = (byte) n;
            length = at;
        }

        void word(String word) {
            int n = word.length();
            count(n);
            room(3 * n);
            for (int i = 0; i < n; i++) {
                unit(word.charAt(i));
            }
        }

        void word(char[] word) {
            count(word.length);
            room(3 * word.length);
            for (char c : word) {
                unit(c);
            }
        }

        private void unit(char c) {
            byte[] b = bytes;
            if (c < 0x80) {
                b[length++] = (byte) c;
            } else if (c < 0x800) {
                b[length++] = (byte) (0xC0 | c >> 6);
                b[length++] = (byte) (0x80 | c & 0x3F);
            } else {
                b[length++] = (byte) (0xE0 | c >> 12);
                b[length++] = (byte) (0x80 | c >> 6 & 0x3F);
                b[length++] = (byte) (0x80 | c & 0x3F);
            }
        }

        private void room(int more) {
            if (bytes.length - length < more) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        /** The block's length, then its bytes. */
        void writeTo(DataOutput out) throws IOException {
            out.writeInt(length);
            out.write(bytes, 0, length);
        }
    }

    /** A block being decoded. */
    static final class Decoder {
        private final byte[] bytes;
        private int at;

        private Decoder(byte[] bytes) {
            this.bytes = bytes;
        }

        /** The next block of {@code in}, as {@link Encoder#writeTo} wrote it. */
        static Decoder readFrom(DataInput in) throws IOException {
            int length = in.readInt();
            if (length < 0) {
                throw new IOException("a block of " + length + " bytes: not a word count's state");
            }
            byte[] bytes = new byte[length];
            in.readFully(bytes);
            return new Decoder(bytes);
        }

        long count() throws IOException {
            long n = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = next();
                n |= (long) (b & 0x7F) << shift;
                if (b < 0x80) {
                    return n;
                }
            }
            throw new IOException("a count longer than 10 bytes: not a word count's state");
        }

        char[] word() throws IOException {
            long length = count();
            if (length > bytes.length - at) {
                throw new IOException("a word of " + length + " characters in " + (bytes.length - at)
                        + " bytes left: not a word count's state");
            }
            char[] word = new char[(int) length];
            for (int i = 0; i < word.length; i++) {
                int b = next();
                if (b < 0x80) {
                    word[i] = (char) b;
                } else if (b < 0xE0) {
                    word[i] = (char) ((b & 0x1F) << 6 | next() & 0x3F);
                } else {
                    word[i] = (char) ((b & 0x0F) << 12 | (next() & 0x3F) << 6 | next() & 0x3F);
                }
            }
            return word;
        }

        private int next() throws IOException {
            if (at == bytes.length) {
                throw new IOException("a block that ends mid-word: not a word count's state");
            }
            return bytes[at++] & 0xFF;
        }
    }
}
