package org.fastflowj.dist;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * A JSON document as a Jackson tree plus where every value and every key starts in the text,
 * looked up by JSON path ({@code groups[2].endpoint}; the root is {@code ""}).
 *
 * <p>Jackson's tree model forgets locations, so the tree is built here from the streaming parser,
 * which knows them. Duplicate keys are caught here rather than with Jackson's
 * {@code STRICT_DUPLICATE_DETECTION}: that feature reports only the second occurrence and no JSON
 * path, while the message here names the path and both places.
 *
 * <p>Threading: immutable after {@link #parse}, safe to share.
 */
final class LocatedJson {
    /** A 1-based line and column in the config text. */
    record Position(int line, int column) {
        @Override
        public String toString() {
            return line + ":" + column;
        }
    }

    /**
     * Deeper than any valid config (root, groups, a group, jvmArgs: 3 levels) by far, and far below
     * Jackson's own limit, whose error carries no place in the file.
     */
    static final int MAX_NESTING_DEPTH = 32;

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    final String source;
    final JsonNode root;
    private final Map<String, Position> valueStarts;
    private final Map<String, Position> keyStarts;

    private LocatedJson(
            String source, JsonNode root, Map<String, Position> valueStarts, Map<String, Position> keyStarts) {
        this.source = source;
        this.root = root;
        this.valueStarts = valueStarts;
        this.keyStarts = keyStarts;
    }

    /** Parses {@code json}; malformed JSON and duplicate keys throw {@link ConfigException}. */
    static LocatedJson parse(String json, String source) {
        var builder = new Builder(source);
        try (JsonParser parser = FACTORY.createParser(json)) {
            try {
                return parse(parser, builder, source);
            } catch (JsonProcessingException e) {
                // Jackson's limits (number length, nesting) throw without a location: where the parser
                // stopped is the place to blame then.
                Position at = position(e.getLocation() != null ? e.getLocation() : parser.currentLocation());
                throw new ConfigException(
                        source, at.line, at.column, "malformed JSON: " + cleanJacksonMessage(e.getOriginalMessage()));
            }
        } catch (IOException e) { // cannot happen on a String, but the parser API declares it
            throw new ConfigException(source, 0, 0, "cannot read the config: " + e, e);
        }
    }

    private static LocatedJson parse(JsonParser parser, Builder builder, String source) throws IOException {
        if (parser.nextToken() == null) {
            throw new ConfigException(source, 1, 1, "the config is empty; expected a JSON object");
        }
        JsonNode root = builder.read(parser, "", 1);
        if (parser.nextToken() != null) {
            Position at = position(parser.currentTokenLocation());
            throw new ConfigException(
                    source,
                    at.line,
                    at.column,
                    "malformed JSON: more content after the top-level object; expected the end of the file");
        }
        return new LocatedJson(source, root, builder.valueStarts, builder.keyStarts);
    }

    /** Where the value at {@code path} starts (for a missing key: pass the enclosing object's path). */
    Position valueAt(String path) {
        return valueStarts.getOrDefault(path, new Position(0, 0));
    }

    /** Where the key naming {@code path} starts; for array elements and the root, where the value starts. */
    Position keyAt(String path) {
        Position key = keyStarts.get(path);
        return key != null ? key : valueAt(path);
    }

    /** An error blaming the value at {@code path}. */
    ConfigException errorAtValue(String path, String problem) {
        Position at = valueAt(path);
        return new ConfigException(source, at.line, at.column, culprit(path) + problem);
    }

    /** An error blaming the key naming {@code path}. */
    ConfigException errorAtKey(String path, String problem) {
        Position at = keyAt(path);
        return new ConfigException(source, at.line, at.column, culprit(path) + problem);
    }

    /** The path part of a message; the root has none, as the position already says "the whole file". */
    private static String culprit(String path) {
        return path.isEmpty() ? "" : path + ": ";
    }

    private static Position position(JsonLocation location) {
        return location == null ? new Position(0, 0) : new Position(location.getLineNr(), location.getColumnNr());
    }

    /**
     * Jackson's messages embed source descriptions ("[Source: REDACTED ...; line: 1, column: 12]") and
     * a second line; our prefix already says where, so keep the first line and the bare line/column.
     */
    private static String cleanJacksonMessage(String message) {
        String firstLine = message.lines().findFirst().orElse(message);
        return firstLine.replaceAll("\\[Source: [^;]*; line: (\\d+), column: (\\d+)]", "$1:$2");
    }

    /** Walks the streaming parser, building the tree and recording positions. */
    private static final class Builder {
        private final String source;
        private final Map<String, Position> valueStarts = new HashMap<>();
        private final Map<String, Position> keyStarts = new HashMap<>();

        Builder(String source) {
            this.source = source;
        }

        /** Reads the value whose first token is the parser's current token, {@code depth} levels down. */
        JsonNode read(JsonParser parser, String path, int depth) throws IOException {
            Position start = position(parser.currentTokenLocation());
            valueStarts.put(path, start);
            JsonNodeFactory nodes = JsonNodeFactory.instance;
            JsonToken token = parser.currentToken();
            if (depth > MAX_NESTING_DEPTH && (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)) {
                throw new ConfigException(
                        source,
                        start.line,
                        start.column,
                        culprit(path) + "nested more than " + MAX_NESTING_DEPTH
                                + " levels deep; expected a config a few levels deep (see docs/config.md)");
            }
            switch (token) {
                case START_OBJECT:
                    return readObject(parser, path, nodes.objectNode(), depth);
                case START_ARRAY:
                    ArrayNode array = nodes.arrayNode();
                    for (int i = 0; parser.nextToken() != JsonToken.END_ARRAY; i++) {
                        array.add(read(parser, path + "[" + i + "]", depth + 1));
                    }
                    return array;
                case VALUE_STRING:
                    return nodes.textNode(parser.getText());
                case VALUE_NUMBER_INT:
                    return nodes.numberNode(parser.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT:
                    return nodes.numberNode(decimal(parser, path, start));
                case VALUE_TRUE:
                    return nodes.booleanNode(true);
                case VALUE_FALSE:
                    return nodes.booleanNode(false);
                case VALUE_NULL:
                    return nodes.nullNode();
                default:
                    throw new IllegalStateException("unexpected JSON token " + parser.currentToken());
            }
        }

        /** No config key takes a fraction, but its message should show the number, so keep it exact. */
        private BigDecimal decimal(JsonParser parser, String path, Position start) throws IOException {
            try {
                return parser.getDecimalValue();
            } catch (NumberFormatException e) { // an exponent beyond BigDecimal's int scale
                String text = parser.getText();
                throw new ConfigException(
                        source,
                        start.line,
                        start.column,
                        culprit(path) + "the number " + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                                + " is out of any range; expected an integer");
            }
        }

        private ObjectNode readObject(JsonParser parser, String path, ObjectNode object, int depth) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                String childPath = path.isEmpty() ? key : path + "." + key;
                Position keyStart = position(parser.currentTokenLocation());
                if (object.has(key)) {
                    throw new ConfigException(
                            source,
                            keyStart.line,
                            keyStart.column,
                            childPath + ": duplicate key (first at " + keyStarts.get(childPath)
                                    + "); expected each key at most once per object");
                }
                keyStarts.put(childPath, keyStart);
                parser.nextToken();
                object.set(key, read(parser, childPath, depth + 1));
            }
            return object;
        }
    }
}
