package io.fleetlake.dashboard.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.fakes.FakeCurrentState;
import io.fleetlake.dashboard.fakes.FakeHistory;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.http.Json;
import io.fleetlake.dashboard.http.Router;
import io.fleetlake.dashboard.pipeline.PipelineCountersReader;
import io.fleetlake.http.HttpRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/** The dashboard's routes over fakes, at a fixed time; requests go through the router as the HTTP layer sends them. */
final class ApiFixture {
    static final Instant NOW = Instant.parse("2026-11-29T18:00:00Z");
    static final Duration STALE_AFTER = Duration.ofMinutes(2);

    final FakeCurrentState redis = new FakeCurrentState();
    final FakeHistory history = new FakeHistory();
    final ObjectMapper mapper = Json.mapper();
    private final Router router;

    ApiFixture(PipelineCountersReader counters) {
        router = DashboardRoutes.router(
                redis,
                history,
                counters,
                new DashboardRoutes.Settings(STALE_AFTER, Duration.ofSeconds(2), Duration.ofDays(1)),
                Clock.fixed(NOW, ZoneOffset.UTC),
                mapper);
    }

    HttpResponse get(String path) {
        return get(path, Map.of());
    }

    HttpResponse get(String path, Map<String, String> query) {
        return router.handle(new HttpRequest("GET", path, query));
    }

    JsonNode json(HttpResponse response) {
        try {
            return mapper.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode json(String text) {
        try {
            return mapper.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
