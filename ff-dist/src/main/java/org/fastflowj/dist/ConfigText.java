package org.fastflowj.dist;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A config file's bytes as text. The file must be UTF-8: the first byte that is not blames its line
 * and column like any other config error, so an editor can jump to it (the JDK's own decoder says
 * neither).
 *
 * <p>Threading: stateless.
 */
final class ConfigText {
    private ConfigText() {}

    /** Decodes {@code bytes} as strict UTF-8; a malformed sequence throws {@link ConfigException}. */
    static String decode(byte[] bytes, String source) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        // UTF-8 never decodes to more chars than it has bytes.
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw notUtf8(bytes, in.position(), out.flip(), source);
        }
        return out.flip().toString();
    }

    /** {@code decoded} is the text before the bad byte: its line breaks place the byte. */
    private static ConfigException notUtf8(byte[] bytes, int offset, CharBuffer decoded, String source) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < decoded.limit(); i++) {
            char c = decoded.get(i);
            // As the JSON parser counts: \n, \r and \r\n each end a line.
            if (c == '\n' || (c == '\r' && (i + 1 == decoded.limit() || decoded.get(i + 1) != '\n'))) {
                line++;
                lineStart = i + 1;
            }
        }
        int column = decoded.limit() - lineStart + 1;
        return new ConfigException(
                source,
                line,
                column,
                String.format("not UTF-8: byte 0x%02x", bytes[offset] & 0xFF) + " (file offset " + offset
                        + ") does not start a valid UTF-8 sequence; expected the config saved as UTF-8");
    }
}
