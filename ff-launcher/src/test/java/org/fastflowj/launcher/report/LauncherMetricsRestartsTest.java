package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher's server says how often every group was restarted from a checkpoint. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LauncherMetricsRestartsTest {
    @Test
    void shouldCountTheRestartsInMetricsAndInTheStatsAnswer() throws Exception {
        AtomicInteger restarts = new AtomicInteger();
        try (LauncherMetrics metrics = LauncherMetrics.serve(0, new GroupReports(), "wordcount", restarts::get)) {
            assertThat(get(metrics, "/metrics"))
                    .contains("fastflowj_launcher_restarts_total{program=\"wordcount\"} 0\n");
            restarts.set(2);

            assertThat(get(metrics, "/metrics"))
                    .contains("# TYPE fastflowj_launcher_restarts_total counter\n")
                    .contains("fastflowj_launcher_restarts_total{program=\"wordcount\"} 2\n");
            assertThat(get(metrics, "/api/stats")).endsWith(",\"launcher\":{\"restarts\":2}}");
        }
    }

    private static String get(LauncherMetrics metrics, String path) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + path))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
}
