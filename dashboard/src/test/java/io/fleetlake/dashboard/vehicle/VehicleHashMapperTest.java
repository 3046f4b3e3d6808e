package io.fleetlake.dashboard.vehicle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VehicleHashMapperTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.250Z");
    private static final Instant STALE_BEFORE = Instant.parse("2026-11-29T17:58:00Z");

    @Test
    void everyField() {
        Map<String, String> hash = new HashMap<>(minimal());
        hash.put("speed_kmh", "48.2");
        hash.put("heading_deg", "271.5");
        hash.put("battery_level", "87.0");
        hash.put("status", "DEVIATING");
        hash.put("route_id", "R-12");
        hash.put("next_stop_id", "S-7");
        hash.put("distance_to_next_stop_m", "1250.5");
        hash.put("distance_from_route_m", "310.0");
        hash.put("enrichment_stale", "true");
        hash.put("updated_at", "1795975200400");

        assertThat(VehicleHashMapper.toVehicle("VH-0001", hash, STALE_BEFORE))
                .isEqualTo(new VehicleView(
                        "VH-0001",
                        40.4168,
                        -3.7038,
                        48.2,
                        271.5,
                        "DEVIATING",
                        "R-12",
                        "S-7",
                        1250.5,
                        310.0,
                        87.0,
                        true,
                        null,
                        null,
                        EVENT_TIME,
                        Instant.ofEpochMilli(1795975200400L),
                        false));
    }

    @Test
    void absentOptionalFieldsAreNull() {
        VehicleView vehicle = VehicleHashMapper.toVehicle("VH-0002", minimal(), STALE_BEFORE);

        assertThat(vehicle)
                .isEqualTo(new VehicleView(
                        "VH-0002",
                        40.4168,
                        -3.7038,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        EVENT_TIME,
                        null,
                        false));
    }

    @Test
    void emptyOptionalValuesCountAsAbsent() {
        Map<String, String> hash = new HashMap<>(minimal());
        hash.put("route_id", "");
        hash.put("battery_level", "");

        VehicleView vehicle = VehicleHashMapper.toVehicle("VH-0002", hash, STALE_BEFORE);

        assertThat(vehicle.routeId()).isNull();
        assertThat(vehicle.batteryLevel()).isNull();
    }

    @Test
    void staleWhenTheFixIsOlderThanTheThreshold() {
        assertThat(VehicleHashMapper.toVehicle("VH-0003", minimal(), EVENT_TIME).stale())
                .as("a fix exactly at the threshold is not stale yet")
                .isFalse();
        assertThat(VehicleHashMapper.toVehicle("VH-0003", minimal(), EVENT_TIME.plusMillis(1))
                        .stale())
                .isTrue();
    }

    @Test
    void requiredFieldsMustBePresent() {
        for (String field : new String[] {"event_time", "latitude", "longitude"}) {
            Map<String, String> hash = new HashMap<>(minimal());
            hash.remove(field);

            assertThatThrownBy(() -> VehicleHashMapper.toVehicle("VH-0004", hash, STALE_BEFORE))
                    .isInstanceOf(UnreadableVehicleException.class)
                    .hasMessage("Vehicle VH-0004: the Redis hash has no " + field + " field");
        }
    }

    @Test
    void malformedValuesAreNamed() {
        assertThatThrownBy(() -> VehicleHashMapper.toVehicle("VH-0005", with("latitude", "north"), STALE_BEFORE))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessage("Vehicle VH-0005: latitude 'north' is not a number");
        assertThatThrownBy(() -> VehicleHashMapper.toVehicle("VH-0005", with("speed_kmh", "NaN"), STALE_BEFORE))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessageContaining("speed_kmh 'NaN' is not a finite number");
        assertThatThrownBy(() -> VehicleHashMapper.toVehicle(
                        "VH-0005", with("event_time", "2026-11-29T18:00:00Z"), STALE_BEFORE))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessageContaining("is not epoch milliseconds");
        assertThatThrownBy(() -> VehicleHashMapper.toVehicle("VH-0005", with("enrichment_stale", "1"), STALE_BEFORE))
                .isInstanceOf(UnreadableVehicleException.class)
                .hasMessageContaining("enrichment_stale '1' is neither true nor false");
    }

    private static Map<String, String> minimal() {
        return Map.of(
                "vehicle_id", "VH-0001",
                "event_time", Long.toString(EVENT_TIME.toEpochMilli()),
                "latitude", "40.4168",
                "longitude", "-3.7038");
    }

    private static Map<String, String> with(String field, String value) {
        Map<String, String> hash = new HashMap<>(minimal());
        hash.put(field, value);
        return hash;
    }
}
