package io.fleetlake.dashboard.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.Route;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {
    private final ObjectMapper mapper = Json.mapper();

    private final Router router = new Router(
            List.of(
                    Route.get("/", request -> Reply.text("text/html; charset=utf-8", "<html></html>")),
                    Route.get(
                            "/api/items/{id}",
                            request -> Reply.json(new Item(request.pathVariable("id"), Instant.EPOCH, null))),
                    Route.get("/api/missing", request -> {
                        throw new DashboardException(DashboardError.SNAPSHOT_NOT_FOUND, "snapshot 5 does not exist");
                    }),
                    Route.get("/api/bug", request -> {
                        throw new IllegalStateException("broken invariant");
                    })),
            mapper);

    @Test
    void textAndJsonReplies() throws Exception {
        assertThat(router.handle(get("/")))
                .isEqualTo(new HttpResponse(200, "text/html; charset=utf-8", "<html></html>"));

        HttpResponse item = router.handle(get("/api/items/VH%2F1+2"));
        assertThat(item.status()).isEqualTo(200);
        assertThat(item.contentType()).isEqualTo("application/json; charset=utf-8");
        assertThat(mapper.readTree(item.body()))
                .isEqualTo(mapper.readTree(
                        "{\"item_id\":\"VH/1+2\",\"seen_at\":\"1970-01-01T00:00:00Z\"," + "\"battery_level\":null}"));
    }

    @Test
    void dashboardErrorsMapThroughTheTable() throws Exception {
        HttpResponse response = router.handle(get("/api/missing"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(mapper.readTree(response.body()))
                .isEqualTo(mapper.readTree("{\"status\":404,\"error\":\"SNAPSHOT_NOT_FOUND\",\"category\":\"USER\","
                        + "\"message\":\"snapshot 5 does not exist\"}"));
    }

    @Test
    void unknownPathsAndOtherMethods() throws Exception {
        HttpResponse unknown = router.handle(get("/api/nothing"));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(json(unknown).path("error").asText()).isEqualTo("NOT_FOUND");

        HttpResponse post = router.handle(new HttpRequest("POST", "/api/items/1", Map.of()));
        assertThat(post.status()).isEqualTo(405);
        assertThat(json(post).path("message").asText())
                .isEqualTo("Method POST is not allowed for /api/items/1: use GET");
    }

    @Test
    void aBugIsA500ThatPointsToTheLog() throws Exception {
        HttpResponse response = router.handle(get("/api/bug"));

        assertThat(response.status()).isEqualTo(500);
        assertThat(json(response).path("category").asText()).isEqualTo("INTERNAL");
        assertThat(json(response).path("message").asText())
                .isEqualTo("Internal error: broken invariant (see the dashboard log)");
    }

    private JsonNode json(HttpResponse response) throws Exception {
        return mapper.readTree(response.body());
    }

    private static HttpRequest get(String path) {
        return new HttpRequest("GET", path, Map.of());
    }

    record Item(String itemId, Instant seenAt, Double batteryLevel) {}
}
