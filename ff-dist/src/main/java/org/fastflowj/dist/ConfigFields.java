package org.fastflowj.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Typed reads of config keys that turn every mismatch into a {@link ConfigException} naming the
 * JSON path, what was found and what is expected. Keeps {@link ConfigReader} about the config's
 * meaning rather than about JSON types. {@link #attempt} keeps reading after a bad key, so that a
 * file's every problem is reported at once ({@link #throwIfAny}).
 *
 * <p>Threading: collects the problems of one read; used by one thread.
 */
final class ConfigFields {
    private final LocatedJson json;
    private final List<ConfigException> problems = new ArrayList<>();

    ConfigFields(LocatedJson json) {
        this.json = json;
    }

    LocatedJson json() {
        return json;
    }

    static String child(String objectPath, String key) {
        return objectPath.isEmpty() ? key : objectPath + "." + key;
    }

    /** {@code node} as an object, or an error saying what it should be. */
    ObjectNode object(JsonNode node, String path, String expected) {
        if (!node.isObject()) {
            throw json.errorAtValue(path, "expected " + expected + ", got " + describe(node));
        }
        return (ObjectNode) node;
    }

    /**
     * {@code read}'s value, or {@code fallback} after noting its problem: the read goes on, and
     * {@link #throwIfAny} reports every problem.
     */
    <T> T attempt(Supplier<T> read, T fallback) {
        try {
            return read.get();
        } catch (ConfigException e) {
            problems.add(e);
            return fallback;
        }
    }

    /** Notes {@code problem} for {@link #throwIfAny}, and reading goes on. */
    void note(ConfigException problem) {
        problems.add(problem);
    }

    /** Throws every problem noted so far as one {@link ConfigException}, in file order. */
    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw ConfigException.all(problems);
        }
    }

    /** Notes every key outside {@code allowed}, listing the allowed ones (and the nearest, if near). */
    void allowOnly(ObjectNode object, String path, List<String> allowed) {
        for (String key : (Iterable<String>) object::fieldNames) {
            if (allowed.contains(key)) {
                continue;
            }
            String hint = KeySuggestion.nearest(key, allowed)
                    .map(candidate -> " (did you mean '" + candidate + "'?)")
                    .orElse("");
            problems.add(json.errorAtKey(
                    child(path, key), "unknown key" + hint + "; allowed here: " + String.join(", ", allowed)));
        }
    }

    /** The value of a required key; a missing key is blamed on the enclosing object. */
    JsonNode required(ObjectNode object, String path, String key, String expected) {
        JsonNode value = object.get(key);
        if (value == null) {
            throw json.errorAtValue(path, "missing required key '" + key + "'; expected " + expected);
        }
        return value;
    }

    /** An int key with a lower bound, or {@code fallback} when absent. */
    int intAtLeast(ObjectNode object, String path, String key, int min, int fallback) {
        return (int) integer(object, path, key, min, Integer.MAX_VALUE, fallback);
    }

    /**
     * {@code batchSize}: an integer >= 1, or the string {@code "auto"} ({@link GroupConfig#AUTO_BATCH_SIZE}); {@code
     * fallback} when absent.
     */
    int batchSize(ObjectNode object, String path, int fallback) {
        JsonNode value = object.get("batchSize");
        if (value != null && value.isTextual()) {
            if (!value.textValue().equals("auto")) {
                throw json.errorAtValue(
                        child(path, "batchSize"), "expected an integer >= 1 or \"auto\", got " + describe(value));
            }
            return GroupConfig.AUTO_BATCH_SIZE;
        }
        return intAtLeast(object, path, "batchSize", 1, fallback);
    }

    /** A long key with a lower bound, or {@code fallback} when absent. */
    long longAtLeast(ObjectNode object, String path, String key, long min, long fallback) {
        return integer(object, path, key, min, Long.MAX_VALUE, fallback);
    }

    /** A long key with both bounds, or {@code fallback} when absent. */
    long longBetween(ObjectNode object, String path, String key, long min, long max, long fallback) {
        return integer(object, path, key, min, max, fallback);
    }

    private long integer(ObjectNode object, String path, String key, long min, long max, long fallback) {
        JsonNode value = object.get(key);
        String at = child(path, key);
        if (value == null) {
            return fallback;
        }
        if (!value.isIntegralNumber()) {
            throw json.errorAtValue(at, "expected an integer, got " + describe(value));
        }
        BigInteger number = value.bigIntegerValue();
        if (number.compareTo(BigInteger.valueOf(min)) < 0) {
            throw json.errorAtValue(at, "expected an integer >= " + min + ", got " + number);
        }
        if (number.compareTo(BigInteger.valueOf(max)) > 0) {
            throw json.errorAtValue(at, "expected an integer <= " + max + ", got " + number);
        }
        return number.longValue();
    }

    /** A string key, or empty when absent. */
    Optional<String> string(ObjectNode object, String path, String key) {
        JsonNode value = object.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw json.errorAtValue(child(path, key), "expected a string, got " + describe(value));
        }
        return Optional.of(value.textValue());
    }

    /** A string key that must not be blank when present. */
    Optional<String> nonBlankString(ObjectNode object, String path, String key) {
        Optional<String> text = string(object, path, key);
        if (text.isPresent() && text.get().isBlank()) {
            throw json.errorAtValue(child(path, key), "expected a non-empty string, got \"" + text.get() + "\"");
        }
        return text;
    }

    /** A boolean key, or {@code fallback} when absent. */
    boolean bool(ObjectNode object, String path, String key, boolean fallback) {
        JsonNode value = object.get(key);
        if (value == null) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw json.errorAtValue(child(path, key), "expected true or false, got " + describe(value));
        }
        return value.booleanValue();
    }

    /** An array-of-strings key, or an empty list when absent. */
    List<String> strings(ObjectNode object, String path, String key) {
        JsonNode value = object.get(key);
        String at = child(path, key);
        if (value == null) {
            return List.of();
        }
        if (!value.isArray()) {
            throw json.errorAtValue(at, "expected an array of strings, got " + describe(value));
        }
        List<String> result = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode element = value.get(i);
            if (!element.isTextual()) {
                throw json.errorAtValue(at + "[" + i + "]", "expected a string, got " + describe(element));
            }
            result.add(element.textValue());
        }
        return List.copyOf(result);
    }

    /** How a found value reads in a message: scalars as JSON text, containers by kind. */
    static String describe(JsonNode node) {
        if (node.isObject()) {
            return "an object";
        }
        if (node.isArray()) {
            return "an array";
        }
        return node.toString();
    }
}
