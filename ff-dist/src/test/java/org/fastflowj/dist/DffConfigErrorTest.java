package org.fastflowj.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each way a config can be wrong: the message names file:line:column, the JSON path and the fix. */
@Timeout(30)
class DffConfigErrorTest {
    private static final String GROUP_KEYS =
            "name, endpoint, host, batchSize, messageOTF, internalMessageOTF, maxBufferedBytesPerLink,"
                    + " flushDelayMicros, threadMapping, preCmd, jvmArgs, tlsName, blocks";

    private static ConfigException error(String json) {
        return catchThrowableOfType(ConfigException.class, () -> DffConfig.parse(json, "app.json"));
    }

    @Test
    void shouldLocateMalformedJsonWhereTheParserStopped() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "h:1" }
                  }
                }
                """);

        assertThat(e)
                .hasMessage("app.json:4:3: malformed JSON: Unexpected close marker '}': expected ']' (for Array"
                        + " starting at 2:13)");
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.column()).isEqualTo(3);
    }

    @Test
    void shouldRejectAnEmptyConfig() {
        assertThat(error("  ")).hasMessage("app.json:1:1: the config is empty; expected a JSON object");
    }

    @Test
    void shouldRejectContentAfterTheTopLevelObject() {
        assertThat(error("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]} {}"))
                .hasMessageStartingWith("app.json:1:49: malformed JSON: more content after the top-level object");
    }

    @Test
    void shouldRejectAConfigThatIsNotAnObject() {
        assertThat(error("[]"))
                .hasMessage("app.json:1:1: expected a JSON object with a \"groups\" array, got an array");
    }

    @Test
    void shouldRejectAnUnknownGroupKeyListingTheAllowedOnes() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "h:1",
                      "batchsize": 4 }
                  ]
                }
                """);

        assertThat(e)
                .hasMessage("app.json:4:7: groups[0].batchsize: unknown key (did you mean 'batchSize'?); allowed here: "
                        + GROUP_KEYS);
    }

    @Test
    void shouldRejectAnUnknownTopLevelKey() {
        assertThat(error("{\n  \"colour\": [],\n  \"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]\n}"))
                .hasMessageStartingWith(
                        "app.json:2:3: colour: unknown key; allowed here: protocol, groups, batchSize,");
    }

    @Test
    void shouldRejectAStringWhereAnIntegerIsExpected() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "h:1",
                      "batchSize": "ten" }
                  ]
                }
                """);

        assertThat(e)
                .hasMessage("app.json:4:20: groups[0].batchSize: expected an integer >= 1 or \"auto\", got \"ten\"");
    }

    @Test
    void shouldRejectAFractionWhereAnIntegerIsExpected() {
        assertThat(error("{\"messageOTF\": 1.5, \"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}]}"))
                .hasMessage("app.json:1:16: messageOTF: expected an integer, got 1.5");
    }

    @Test
    void shouldBlameAMissingRequiredKeyOnItsObject() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "h:1" },
                    { "name": "G2" }
                  ]
                }
                """);

        assertThat(e).hasMessage("app.json:4:5: groups[1]: missing required key 'endpoint'; expected \"host:port\"");
    }

    @Test
    void shouldRequireTheGroupsArray() {
        assertThat(error("{ \"batchSize\": 4 }"))
                .hasMessage("app.json:1:1: missing required key 'groups'; expected a non-empty array of group objects");
    }

    @Test
    void shouldRejectAnEmptyGroupsArray() {
        assertThat(error("{ \"groups\": [] }"))
                .hasMessage("app.json:1:13: groups: expected a non-empty array of group objects, got []");
    }

    @Test
    void shouldRejectDuplicateGroupNameNamingBothLocations() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "h:1" },
                    { "name": "G2", "endpoint": "h:2" },
                    { "name": "G1", "endpoint": "h:3" }
                  ]
                }
                """);

        assertThat(e)
                .hasMessage("app.json:5:15: groups[2].name: duplicate group name 'G1' (first at 3:15 in groups[0]);"
                        + " expected unique names");
    }

    @Test
    void shouldRejectDuplicateEndpointNamingLineAndColumn() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpoint": "node1:9000" },
                    { "name": "G2", "endpoint": "NODE1:9000" }
                  ]
                }
                """);

        assertThat(e)
                .hasMessage("app.json:4:33: groups[1].endpoint: duplicate endpoint \"NODE1:9000\" (also used by"
                        + " groups[0] at 3:33); expected one endpoint per group");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "node1      | no port in \"node1\"",
                "node1:     | port \"\" is not a number",
                "node1:http | port \"http\" is not a number",
                "node1:0    | port 0 is out of range",
                "node1:65536| port 65536 is out of range",
                ":9000      | empty host in \":9000\"",
                "::1:9000   | an IPv6 address needs brackets in \"::1:9000\"",
                "[::1]9000  | no port in \"[::1]9000\"",
                "[::1:9000  | IPv6 address without a closing ']' in \"[::1:9000\"",
            })
    void shouldRejectABadEndpointSayingWhatIsWrong(String endpoint, String problem) {
        ConfigException e = error("{\"groups\": [{\"name\": \"G1\",\n \"endpoint\": \"" + endpoint + "\"}]}");

        assertThat(e)
                .hasMessage("app.json:2:14: groups[0].endpoint: " + problem
                        + "; expected \"host:port\" (IPv6 as \"[::1]:9000\") with a port from 1 to 65535");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "batchSize          | 0           | expected an integer >= 1, got 0",
                "messageOTF         | -3          | expected an integer >= 1, got -3",
                "internalMessageOTF | 0          | expected an integer >= 1, got 0",
                "maxBufferedBytesPerLink | 65536 | expected an integer >= 262144, got 65536",
                "flushDelayMicros   | -1          | expected an integer >= 0, got -1",
                "connectTimeoutMs   | -1          | expected an integer >= 0, got -1",
                "heartbeatIntervalMs| 0           | expected an integer >= 1, got 0",
                "maxFrameBytes      | 1023        | expected an integer >= 1024, got 1023",
                "maxFrameBytes      | 99999999999 | expected an integer <= 2147483647, got 99999999999",
            })
    void shouldRejectANumberOutOfRange(String key, String value, String problem) {
        ConfigException e =
                error("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}],\n\"" + key + "\": " + value + "}");

        assertThat(e).hasMessage("app.json:2:" + (key.length() + 5) + ": " + key + ": " + problem);
    }

    @Test
    void shouldRejectAHeartbeatTimeoutNotAboveTheInterval() {
        ConfigException e = error(
                """
                { "groups": [ { "name": "G1", "endpoint": "h:1" } ],
                  "heartbeatIntervalMs": 2000,
                  "heartbeatTimeoutMs": 2000 }
                """);

        assertThat(e)
                .hasMessage("app.json:3:25: heartbeatTimeoutMs: heartbeatTimeoutMs (2000) must be more than"
                        + " heartbeatIntervalMs (2000); expected a timeout several intervals long");
    }

    @Test
    void shouldRejectAnUnsupportedProtocol() {
        assertThat(error("{ \"protocol\": \"MPI\", \"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\"}] }"))
                .hasMessage("app.json:1:15: protocol: unsupported protocol \"MPI\"; expected \"TCP\"");
    }

    @Test
    void shouldRejectAThreadMappingThatIsNotACpuList() {
        assertThat(error("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\", \"threadMapping\": \"0,a\"}]}"))
                .hasMessage("app.json:1:64: groups[0].threadMapping: \"0,a\" is not a CPU list; expected"
                        + " comma-separated non-negative integers, like \"0,2,4\"");
    }

    @Test
    void shouldRejectAJvmArgThatIsNotAString() {
        assertThat(error("{\"groups\": [{\"name\": \"G1\", \"endpoint\": \"h:1\", \"jvmArgs\": [\"-ea\", 4]}]}"))
                .hasMessage("app.json:1:66: groups[0].jvmArgs[1]: expected a string, got 4");
    }

    @Test
    void shouldRejectBothSecretFileAndSecretEnv() {
        ConfigException e = error(
                """
                { "groups": [ { "name": "G1", "endpoint": "h:1" } ],
                  "secretFile": "s.txt",
                  "secretEnv": "FF_SECRET" }
                """);

        assertThat(e)
                .hasMessage("app.json:3:3: secretEnv: both secretFile and secretEnv are given; expected at most one"
                        + " source of the secret");
    }

    @Test
    void shouldRejectTlsWithoutAKeyFile() {
        ConfigException e = error(
                """
                { "groups": [ { "name": "G1", "endpoint": "h:1" } ],
                  "tls": { "certFile": "g.pem",
                           "trustFile": "ca.pem" } }
                """);

        assertThat(e).hasMessage("app.json:2:10: tls: missing required key 'keyFile'; expected the path of a PEM file");
    }

    @Test
    void shouldRejectADuplicateKeyNamingBothPlaces() {
        ConfigException e = error(
                """
                { "groups": [ { "name": "G1", "endpoint": "h:1",
                                "batchSize": 4,
                                "batchSize": 8 } ] }
                """);

        assertThat(e)
                .hasMessage("app.json:3:17: groups[0].batchSize: duplicate key (first at 2:17); expected each key at"
                        + " most once per object");
    }

    @Test
    void shouldLocateNestingDeeperThanAnyConfigAtTheFirstLevelTooDeep() {
        // "x" is the first array, at depth 2: the 32nd array, x[0] 31 times, is at depth 33 and column 8 + 31.
        ConfigException e = error("{ \"groups\": [ { \"name\": \"G1\", \"endpoint\": \"h:1\" } ],\n  \"x\": "
                + "[".repeat(10_000) + "]".repeat(10_000) + " }");

        assertThat(e)
                .hasMessageStartingWith("app.json:2:39: x" + "[0]".repeat(31) + ": nested more than 32 levels deep");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(39);
    }

    @Test
    void shouldLocateAValueBeyondTheParsersLimitsWhereTheParserStopped() {
        ConfigException e = error("{\n  \"batchSize\": " + "9".repeat(2_000) + ",\n  \"groups\": [] }");

        assertThat(e.getMessage()).startsWith("app.json:2:").contains("malformed JSON: Number value length");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isPositive();
    }

    @Test
    void shouldRejectANumberWhoseExponentNoDecimalCanHold() {
        ConfigException e = error("{ \"groups\": [],\n  \"batchSize\": 1e10000000000 }");

        assertThat(e)
                .hasMessage("app.json:2:16: batchSize: the number 1e10000000000 is out of any range; expected an"
                        + " integer");
    }

    @Test
    void shouldLocateTheFirstByteThatIsNotUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.json");
        byte[] head = "{\r\n  \"groups\": [ { \"name\": \"G".getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\", \"endpoint\": \"h:1\" } ]\r\n}\r\n".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head);
        bytes.write(0xE9); // "é" in Latin-1
        bytes.writeBytes(tail);
        Files.write(file, bytes.toByteArray());

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DffConfig.load(file));

        assertThat(e)
                .hasMessage("app.json:2:27: not UTF-8: byte 0xe9 (file offset " + head.length
                        + ") does not start a valid UTF-8 sequence; expected the config saved as UTF-8");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(27);
    }

    @Test
    void shouldLocateATruncatedUtf8SequenceAtTheEndOfTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.json");
        Files.write(file, new byte[] {'{', '\n', '\n', ' ', (byte) 0xE2, (byte) 0x82});

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DffConfig.load(file));

        assertThat(e).hasMessageStartingWith("app.json:3:2: not UTF-8: byte 0xe2 (file offset 4)");
    }

    @Test
    void shouldSuggestTheNearestKeyForAMisspeltOne() {
        ConfigException e = error(
                """
                {
                  "groups": [
                    { "name": "G1", "endpont": "h:1" }
                  ],
                  "heartbeatIntervallMs": 100
                }
                """);

        assertThat(e.problems())
                .extracting(ConfigException::getMessage)
                .containsExactly(
                        "app.json:3:5: groups[0]: missing required key 'endpoint'; expected \"host:port\"",
                        "app.json:3:21: groups[0].endpont: unknown key (did you mean 'endpoint'?); allowed here: "
                                + GROUP_KEYS,
                        "app.json:5:3: heartbeatIntervallMs: unknown key (did you mean 'heartbeatIntervalMs'?);"
                                + " allowed here: protocol, groups, batchSize, messageOTF, internalMessageOTF,"
                                + " maxBufferedBytesPerLink, flushDelayMicros, connectTimeoutMs, heartbeatIntervalMs,"
                                + " heartbeatTimeoutMs, maxFrameBytes, maxObjectsPerItem, maxCachedBytesPerLink, stallTimeoutMs, secretFile,"
                                + " secretEnv, insecure,"
                                + " tls, checkpoints");
    }

    @Test
    void shouldReportEveryProblemOfTheFileAtOnceInFileOrder() {
        ConfigException e = error(
                """
                {
                  "batchSize": 0,
                  "groups": [
                    { "name": "G1", "endpoint": "h:1", "messageOTF": "many" },
                    { "name": "", "endpoint": "h:2" },
                    { "name": "G3", "endpoint": "h" },
                    { "name": "G1", "endpoint": "h:4", "threadMapping": "0-3" }
                  ]
                }
                """);

        assertThat(e.getMessage().lines().toList())
                .containsExactly(
                        "app.json:2:16: batchSize: expected an integer >= 1, got 0",
                        "app.json:4:54: groups[0].messageOTF: expected an integer, got \"many\"",
                        "app.json:5:15: groups[1].name: \"\" is not a group name; expected 1 to 64 letters, digits,"
                                + " '_', '.' and '-', not starting with '.' or '-'",
                        e.problems().get(3).getMessage(),
                        "app.json:7:15: groups[3].name: duplicate group name 'G1' (first at 4:15 in groups[0]);"
                                + " expected unique names",
                        e.problems().get(5).getMessage());
        assertThat(e.problems().get(3).getMessage()).startsWith("app.json:6:33: groups[2].endpoint: ");
        assertThat(e.problems().get(5).getMessage())
                .startsWith("app.json:7:57: groups[3].threadMapping: \"0-3\" is not a CPU list");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(16);
    }

    @Test
    void shouldNameADirectoryGivenAsTheConfig(@TempDir Path dir) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DffConfig.load(dir));

        assertThat(e).hasMessage(dir + ": is a directory; expected a config file (JSON, like app.json)");
    }
}
