package org.fastflowj.core.metrics;

/** The little JSON the live page reads: strings quoted and escaped as RFC 8259 requires. */
final class JsonText {
    private JsonText() {}

    /** Appends {@code value} as a JSON string, or {@code null}. */
    static StringBuilder string(StringBuilder out, String value) {
        if (value == null) {
            return out.append("null");
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // '<' escaped too, so that no name can close a script element if the JSON is inlined
                    if (c < 0x20 || c == '<' || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /** Appends {@code "key":} to an object being written. */
    static StringBuilder key(StringBuilder out, String key) {
        return string(out, key).append(':');
    }
}
