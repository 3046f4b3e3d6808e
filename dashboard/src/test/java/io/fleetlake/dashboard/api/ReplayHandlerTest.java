package io.fleetlake.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.dashboard.history.ReplayQuery;
import io.fleetlake.dashboard.history.SnapshotInfo;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayHandlerTest {
    private static final long SNAPSHOT = 9_920_562_265_880_443L;

    private final ApiFixture api = new ApiFixture(() -> {
        throw new PipelineCountersUnavailableException("not used");
    });

    @Test
    void theFleetAtAnInstantFromTheCurrentTable() {
        api.history.row(row("VH-0002", "2026-11-29T16:59:00Z")).row(row("VH-0001", "2026-11-29T16:50:00Z"));

        HttpResponse response = api.get("/api/replay", Map.of("at", "2026-11-29T18:00:00+01:00"));

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = api.json(response);
        assertThat(body.path("mode").asText()).isEqualTo("replay");
        assertThat(body.path("at").asText()).isEqualTo("2026-11-29T17:00:00Z");
        assertThat(body.path("snapshot").isNull()).isTrue();
        assertThat(body.path("as_of").asText()).isEqualTo("2026-11-29T18:00:00Z");
        assertThat(body.path("scanned_from").asText()).isEqualTo("2026-11-28T17:00:00Z");
        assertThat(body.path("vehicles")).hasSize(2);
        JsonNode first = body.path("vehicles").get(0);
        assertThat(first.path("vehicle_id").asText()).isEqualTo("VH-0001");
        assertThat(first.path("stale").asBoolean())
                .as("10 minutes before the instant")
                .isTrue();
        assertThat(first.path("updated_at").asText()).isEqualTo("2026-11-29T16:50:01Z");
        assertThat(body.path("vehicles").get(1).path("stale").asBoolean()).isFalse();

        ReplayQuery query = api.history.queries().get(0);
        assertThat(query.snapshotId()).isEmpty();
        assertThat(query.parameters()).containsExactly("2026-11-28T17:00:00Z", "2026-11-29T17:00:00Z");
    }

    @Test
    void theFleetAsTheHistoryStoodAtASnapshot() {
        api.history.snapshot(new SnapshotInfo(SNAPSHOT, Instant.parse("2026-11-29T17:30:00Z"), "append", 10L, 100L));

        HttpResponse response =
                api.get("/api/replay", Map.of("at", "2026-11-29T17:00:00Z", "snapshot", Long.toString(SNAPSHOT)));

        assertThat(response.status()).isEqualTo(200);
        assertThat(api.json(response).path("snapshot").asText()).isEqualTo("9920562265880443");
        assertThat(api.history.queries().get(0).sql()).contains("FOR VERSION AS OF 9920562265880443");
    }

    @Test
    void anUnknownSnapshotIs404AndNotQueried() {
        HttpResponse response = api.get("/api/replay", Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "42"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(api.json(response).path("error").asText()).isEqualTo("SNAPSHOT_NOT_FOUND");
        assertThat(api.json(response).path("message").asText()).startsWith("snapshot 42 does not exist (expired?)");
        assertThat(api.history.queries()).isEmpty();
    }

    @Test
    void badParametersAre400() {
        assertBadRequest(Map.of(), "The query parameter at is required");
        assertBadRequest(Map.of("at", "yesterday"), "at = 'yesterday' is not an ISO-8601 instant");
        assertBadRequest(Map.of("at", "2026-11-29T17:00:00"), "with a time zone");
        assertBadRequest(Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "1 OR 1=1"), "is not a snapshot id");
        assertBadRequest(Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "-3"), "is not a snapshot id");
        assertBadRequest(Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "0"), "is not a snapshot id");
        assertBadRequest(
                Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "99999999999999999999"), "is not a snapshot id");
        assertBadRequest(
                Map.of("at", "2026-11-29T17:00:00Z", "snapshot", "9999999999999999999"), "is not a snapshot id");
        assertThat(api.history.queries()).isEmpty();
    }

    @Test
    void snapshotIdsAreStringsForJavaScript() {
        api.history
                .snapshot(new SnapshotInfo(SNAPSHOT, Instant.parse("2026-11-29T17:30:00Z"), "append", 1727L, 4080L))
                .snapshot(new SnapshotInfo(7L, Instant.parse("2026-11-29T17:20:00Z"), null, null, null));

        HttpResponse response = api.get("/api/snapshots");

        assertThat(response.status()).isEqualTo(200);
        assertThat(api.json(response))
                .isEqualTo(api.json("{\"snapshots\":["
                        + "{\"id\":\"9920562265880443\",\"committed_at\":\"2026-11-29T17:30:00Z\",\"operation\":\"append\","
                        + "\"added_records\":1727,\"total_records\":4080},"
                        + "{\"id\":\"7\",\"committed_at\":\"2026-11-29T17:20:00Z\",\"operation\":null,"
                        + "\"added_records\":null,\"total_records\":null}]}"));
    }

    private void assertBadRequest(Map<String, String> query, String message) {
        HttpResponse response = api.get("/api/replay", query);
        assertThat(response.status()).as("%s", query).isEqualTo(400);
        assertThat(api.json(response).path("error").asText()).isEqualTo("INVALID_PARAMETER");
        assertThat(api.json(response).path("message").asText()).contains(message);
    }

    private static Map<String, Object> row(String vehicleId, String eventTime) {
        Map<String, Object> row = new HashMap<>();
        row.put("vehicle_id", vehicleId);
        row.put("event_time", Instant.parse(eventTime));
        row.put("latitude", 40.0);
        row.put("longitude", -3.0);
        row.put("speed_kmh", 10.0);
        row.put("heading_deg", 0.0);
        row.put("ingest_time", Instant.parse(eventTime).plusSeconds(1));
        row.put("status", "ON_ROUTE");
        return row;
    }
}
