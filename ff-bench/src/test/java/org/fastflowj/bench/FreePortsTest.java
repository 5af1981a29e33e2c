package org.fastflowj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FreePortsTest {
    @Test
    void shouldTakeDistinctPortsThatCanBeBound() throws IOException {
        for (int round = 0; round < 20; round++) {
            int[] ports = FreePorts.take(8);
            assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(ports.length);
            for (int port : ports) {
                assertThat(port).isPositive();
                try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    assertThat(socket.getLocalPort()).isEqualTo(port);
                }
            }
        }
    }
}
