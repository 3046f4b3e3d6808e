package io.fleetlake.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.dashboard.fakes.FakeCurrentState;
import io.fleetlake.dashboard.fakes.FakeHistory;
import io.fleetlake.dashboard.health.HealthReader;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.http.Json;
import io.fleetlake.dashboard.http.Router;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import io.fleetlake.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code GET /api/health}: fleet-exporter's report passed through, and every request observed for metrics. */
class HealthRouteTest {
    private static final String REPORT = "{\"healthy\":false,\"status\":\"FAIL\",\"checks\":[{\"area\":\"ingest\","
            + "\"subject\":\"connector\",\"status\":\"FAIL\",\"detail\":\"mqtt-positions PAUSED\"}]}";

    private final List<String> observed = new ArrayList<>();

    @Test
    void theExportersReportIsServedAsItIs() throws Exception {
        HttpResponse response = router(() -> REPORT).handle(new HttpRequest("GET", "/api/health", Map.of()));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).isEqualTo(HttpResponse.JSON);
        assertThat(new ObjectMapper()
                        .readTree(response.body())
                        .path("checks")
                        .get(0)
                        .path("detail")
                        .asText())
                .isEqualTo("mqtt-positions PAUSED");
        assertThat(observed).containsExactly("/api/health 200");
    }

    @Test
    void anUnreachableExporterIsA503ThatSaysSo() throws Exception {
        HttpResponse response = router(() -> {
                    throw new DashboardException(
                            DashboardError.HEALTH_UNAVAILABLE, "fleet-exporter is unreachable at http://x/health");
                })
                .handle(new HttpRequest("GET", "/api/health", Map.of()));

        assertThat(response.status()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(response.body()).path("message").asText())
                .isEqualTo("fleet-exporter is unreachable at http://x/health");
    }

    @Test
    void withoutAnExporterThePanelIsToldWhatToConfigure() {
        HttpResponse response =
                router(HealthReader.NOT_CONFIGURED).handle(new HttpRequest("GET", "/api/health", Map.of()));

        assertThat(response.status()).isEqualTo(503);
        assertThat(response.body()).contains("dashboard.health-uri");
    }

    @Test
    void unmatchedPathsAreObservedUnderOneLabel() {
        router(() -> REPORT).handle(new HttpRequest("GET", "/no/such/page", Map.of()));
        router(() -> REPORT).handle(new HttpRequest("GET", "/api/vehicles/VH-1", Map.of()));

        assertThat(observed).containsExactly("unmatched 404", "/api/vehicles/{id} 404");
    }

    private Router router(HealthReader health) {
        return DashboardRoutes.router(
                new FakeCurrentState(),
                new FakeHistory(),
                () -> {
                    throw new PipelineCountersUnavailableException("not in this test");
                },
                health,
                (route, status, nanos) -> observed.add(route + " " + status),
                new DashboardRoutes.Settings(Duration.ofMinutes(2), Duration.ofSeconds(2), Duration.ofDays(1)),
                Clock.fixed(Instant.parse("2026-11-29T18:00:00Z"), ZoneOffset.UTC),
                Json.mapper());
    }
}
