package org.fastflowj.packaging;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A copy of a shipped loopback config with every endpoint moved to a free port (the shipped ports may be taken). */
final class LoopbackConfig {
    private static final Pattern ENDPOINT = Pattern.compile("\"endpoint\"\\s*:\\s*\"127\\.0\\.0\\.1:(\\d+)\"");

    private LoopbackConfig() {}

    static Path onFreePorts(Path config, Path copy) throws IOException {
        Matcher m = ENDPOINT.matcher(Files.readString(config));
        StringBuilder text = new StringBuilder();
        int endpoints = 0;
        while (m.find()) {
            m.appendReplacement(text, "\"endpoint\": \"127.0.0.1:" + freePort() + "\"");
            endpoints++;
        }
        m.appendTail(text);
        if (endpoints == 0) {
            throw new AssertionError(config + " has no 127.0.0.1 endpoint to move");
        }
        return Files.writeString(copy, text);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
