package io.fleetlake.dashboard.vehicle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VehicleRowMapperTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00Z");
    private static final Instant INGEST_TIME = Instant.parse("2026-11-29T18:00:00.800Z");

    @Test
    void rowOfTheCurrentSchema() {
        Map<String, Object> row = new HashMap<>(baseRow());
        row.put("battery_level", 55.5);
        row.put("route_id", "R-3");
        row.put("next_stop_id", "S-9");
        row.put("distance_to_next_stop_m", 800.0);
        row.put("distance_to_next_stop_method", "ALONG_ROUTE");
        row.put("distance_from_route_m", 12.0);
        row.put("status", "ON_ROUTE");
        row.put("enrichment_stale", false);
        row.put("replay_rank", 1L);
        row.put("place_name", "Baixa");
        row.put("province", "Lisbon");

        assertThat(VehicleRowMapper.toVehicle(row, EVENT_TIME.minusSeconds(120)))
                .isEqualTo(new VehicleView(
                        "VH-0001",
                        38.7223,
                        -9.1393,
                        31.0,
                        180.0,
                        "ON_ROUTE",
                        "R-3",
                        "S-9",
                        800.0,
                        12.0,
                        55.5,
                        false,
                        "Baixa",
                        "Lisbon",
                        EVENT_TIME,
                        INGEST_TIME,
                        false));
    }

    @Test
    void columnsAbsentFromAnOlderSnapshotAreNull() {
        VehicleView vehicle = VehicleRowMapper.toVehicle(baseRow(), EVENT_TIME.minusSeconds(120));

        assertThat(vehicle.status()).isNull();
        assertThat(vehicle.batteryLevel()).isNull();
        assertThat(vehicle.enrichmentStale()).isNull();
        assertThat(vehicle.updatedAt()).isEqualTo(INGEST_TIME);
    }

    @Test
    void staleRelativeToTheReplayInstant() {
        assertThat(VehicleRowMapper.toVehicle(baseRow(), EVENT_TIME.plusSeconds(1))
                        .stale())
                .isTrue();
    }

    @Test
    void mistypedOrMissingRequiredColumnsAreUnreadable() {
        Map<String, Object> row = new HashMap<>(baseRow());
        row.put("latitude", "38.7");
        assertThatThrownBy(() -> VehicleRowMapper.toVehicle(row, EVENT_TIME))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessage("Vehicle VH-0001: column latitude holds a String, expected a Number");
        row.remove("latitude");
        assertThatThrownBy(() -> VehicleRowMapper.toVehicle(row, EVENT_TIME))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessage("Vehicle VH-0001: the fleet.positions row has no latitude value");
    }

    private static Map<String, Object> baseRow() {
        return Map.of(
                "vehicle_id",
                "VH-0001",
                "event_time",
                EVENT_TIME,
                "latitude",
                38.7223,
                "longitude",
                -9.1393,
                "speed_kmh",
                31.0,
                "heading_deg",
                180.0,
                "source_partition",
                1,
                "source_offset",
                4711L,
                "ingest_time",
                INGEST_TIME);
    }
}
