package io.fleetlake.dashboard.api;

import static io.fleetlake.dashboard.api.ApiFixture.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VehiclesHandlerTest {
    private final ApiFixture api = new ApiFixture(() -> {
        throw new PipelineCountersUnavailableException("not used");
    });

    @Test
    void theWholeFleetByVehicleIdWithItsStaleFlag() {
        api.redis
                .vehicle("VH-0002", NOW.minusSeconds(300), 41.3874, 2.1686, "STOPPED")
                .vehicle("VH-0001", NOW.minusSeconds(3), 40.4168, -3.7038, "ON_ROUTE");

        HttpResponse response = api.get("/api/vehicles");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = api.json(response);
        assertThat(body.path("mode").asText()).isEqualTo("live");
        assertThat(body.path("as_of").asText()).isEqualTo("2026-11-29T18:00:00Z");
        assertThat(body.path("stale_after_seconds").asLong()).isEqualTo(120);
        assertThat(body.path("vehicles")).hasSize(2);
        assertThat(body.path("vehicles").get(0))
                .isEqualTo(api.json("{\"vehicle_id\":\"VH-0001\",\"latitude\":40.4168,\"longitude\":-3.7038,"
                        + "\"speed_kmh\":42.5,\"heading_deg\":90.0,\"status\":\"ON_ROUTE\",\"route_id\":null,"
                        + "\"next_stop_id\":null,\"distance_to_next_stop_m\":null,\"distance_from_route_m\":null,"
                        + "\"battery_level\":null,\"enrichment_stale\":null,\"place_name\":null,\"province\":null,"
                        + "\"event_time\":\"2026-11-29T17:59:57Z\",\"updated_at\":\"2026-11-29T17:59:57.150Z\","
                        + "\"stale\":false}"));
        assertThat(body.path("vehicles").get(1).path("vehicle_id").asText()).isEqualTo("VH-0002");
        assertThat(body.path("vehicles").get(1).path("stale").asBoolean()).isTrue();
        assertThat(body.path("skipped_vehicles")).isEmpty();
    }

    @Test
    void unreadableOrVanishedVehiclesAreListedNotFatal() {
        api.redis
                .vehicle("VH-0001", NOW, 40.0, -3.0, "ON_ROUTE")
                .put("VH-0002", Map.of("event_time", "yesterday", "latitude", "1", "longitude", "2"))
                .put("VH-0003", Map.of());

        JsonNode body = api.json(api.get("/api/vehicles"));

        assertThat(body.path("vehicles")).hasSize(1);
        assertThat(body.path("skipped_vehicles"))
                .isEqualTo(api.json("[{\"vehicle_id\":\"VH-0002\","
                        + "\"reason\":\"Vehicle VH-0002: event_time 'yesterday' is not epoch milliseconds\"},"
                        + "{\"vehicle_id\":\"VH-0003\","
                        + "\"reason\":\"listed in the last-seen set, but its hash is gone\"}]"));
    }

    @Test
    void oneVehicle() {
        api.redis.vehicle("VH 7", NOW.minusSeconds(10), 28.1235, -15.4363, null);

        HttpResponse response = api.get("/api/vehicles/VH%207");

        assertThat(response.status()).isEqualTo(200);
        JsonNode vehicle = api.json(response);
        assertThat(vehicle.path("vehicle_id").asText()).isEqualTo("VH 7");
        assertThat(vehicle.path("latitude").asDouble()).isEqualTo(28.1235);
        assertThat(vehicle.path("status").isNull()).isTrue();
    }

    @Test
    void unknownVehicleIs404() {
        HttpResponse response = api.get("/api/vehicles/VH-9999");

        assertThat(response.status()).isEqualTo(404);
        assertThat(api.json(response).path("error").asText()).isEqualTo("VEHICLE_NOT_FOUND");
        assertThat(api.json(response).path("message").asText()).contains("VH-9999");
    }

    @Test
    void unreadableVehicleIs502() {
        api.redis.put("VH-0001", Map.of("event_time", "1"));

        HttpResponse response = api.get("/api/vehicles/VH-0001");

        assertThat(response.status()).isEqualTo(502);
        assertThat(api.json(response).path("error").asText()).isEqualTo("UNREADABLE_VEHICLE_STATE");
    }

    @Test
    void unreachableRedisIs503() {
        api.redis.unreachable();

        HttpResponse response = api.get("/api/vehicles");

        assertThat(response.status()).isEqualTo(503);
        assertThat(api.json(response).path("error").asText()).isEqualTo("REDIS_UNAVAILABLE");
        assertThat(api.json(response).path("category").asText()).isEqualTo("EXTERNAL");
    }
}
