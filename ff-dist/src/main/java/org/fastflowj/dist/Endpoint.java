package org.fastflowj.dist;

import java.util.Locale;
import java.util.function.Function;

/**
 * A group's listening address as written in the config: {@code host:port}, or {@code [v6]:port}
 * for an IPv6 literal. Nothing is resolved here: the config is checked on machines that may not
 * know the other hosts' names.
 *
 * @param host the host without IPv6 brackets
 * @param port 1..65535
 */
record Endpoint(String host, int port) {
    private static final String EXPECTED =
            "expected \"host:port\" (IPv6 as \"[::1]:9000\") with a port from 1 to 65535";

    /**
     * Parses {@code text}, or throws the exception {@code error} builds from the reason; the caller
     * adds the JSON path and position, so this stays free of them.
     */
    static Endpoint parse(String text, Function<String, ConfigException> error) {
        String host;
        String portText;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw error.apply("IPv6 address without a closing ']' in \"" + text + "\"; " + EXPECTED);
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.startsWith(":")) {
                throw error.apply("no port in \"" + text + "\"; " + EXPECTED);
            }
            portText = rest.substring(1);
        } else {
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw error.apply("no port in \"" + text + "\"; " + EXPECTED);
            }
            host = text.substring(0, colon);
            portText = text.substring(colon + 1);
            if (host.contains(":")) {
                throw error.apply("an IPv6 address needs brackets in \"" + text + "\"; " + EXPECTED);
            }
        }
        if (host.isBlank()) {
            throw error.apply("empty host in \"" + text + "\"; " + EXPECTED);
        }
        if (portText.isEmpty() || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw error.apply("port \"" + portText + "\" is not a number; " + EXPECTED);
        }
        // Compare by length first so that a very long digit string cannot overflow the parse.
        if (portText.length() > 5 || Integer.parseInt(portText) < 1 || Integer.parseInt(portText) > 65535) {
            throw error.apply("port " + portText + " is out of range; " + EXPECTED);
        }
        return new Endpoint(host, Integer.parseInt(portText));
    }

    /**
     * The key under which two endpoints count as the same: host names are case-insensitive, so the
     * host is lower-cased; no name is resolved, so {@code localhost} and {@code 127.0.0.1} differ.
     */
    String identity() {
        return host.toLowerCase(Locale.ROOT) + ":" + port;
    }
}
