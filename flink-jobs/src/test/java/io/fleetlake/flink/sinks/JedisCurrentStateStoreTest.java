package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.VehicleStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The script's calling convention and the connection settings; the script itself and authentication are tested
 * against a real Redis in JedisCurrentStateStoreIT.
 */
class JedisCurrentStateStoreTest {
    private static final Instant EVENT_TIME = Instant.ofEpochMilli(1_795_000_000_123L);
    private static final Instant UPDATED_AT = Instant.ofEpochMilli(1_795_000_001_000L);
    private static final Duration TIMEOUT = Duration.ofMillis(1_500);
    private static final Duration TTL = Duration.ofDays(7);
    private static final VehicleState ON_ROUTE = new VehicleState(
            "VH-0001",
            EVENT_TIME,
            40.5,
            -3.25,
            57.5,
            271.0,
            81.5,
            VehicleStatus.ON_ROUTE,
            "R-1",
            "S-2",
            1234.5,
            12.25,
            true);
    private static final VehicleState OTHER = new VehicleState(
            "VH-0002", EVENT_TIME, 40.6, -3.5, 10.0, 90.0, null, VehicleStatus.NO_ROUTE, null, null, null, null, false);
    private static final VehicleState WITHOUT_ROUTE = new VehicleState(
            "VH-0001", EVENT_TIME, 40.5, -3.25, 0.5, 271.0, null, VehicleStatus.STOPPED, null, null, null, null, false);

    @Test
    void keysAreTheGeoIndexTheLastSeenSetAndTheHashOfEachVehicleOfTheBatch() {
        assertThat(JedisCurrentStateStore.keys(List.of(ON_ROUTE, OTHER)))
                .containsExactly(
                        RedisKeys.GEO_INDEX,
                        RedisKeys.LAST_SEEN,
                        RedisKeys.EXPIRY,
                        RedisKeys.vehicle("VH-0001"),
                        RedisKeys.vehicle("VH-0002"));
    }

    @Test
    void everyVehicleFieldIsWrittenWhenTheFixHasEveryValue() {
        Script script = Script.of(JedisCurrentStateStore.arguments(List.of(ON_ROUTE), UPDATED_AT, TTL));

        assertThat(script.readFields())
                .containsExactly(
                        VehicleField.VEHICLE_ID.field(),
                        VehicleField.EVENT_TIME.field(),
                        VehicleField.LATITUDE.field(),
                        VehicleField.LONGITUDE.field());
        assertThat(script.vehicles()).singleElement().satisfies(values -> {
            assertThat(values.keySet())
                    .containsExactlyElementsOf(Arrays.stream(VehicleField.values())
                            .map(VehicleField::field)
                            .toList());
            assertThat(values)
                    .containsEntry("vehicle_id", "VH-0001")
                    .containsEntry("event_time", "1795000000123")
                    .containsEntry("latitude", "40.5")
                    .containsEntry("longitude", "-3.25")
                    .containsEntry("battery_level", "81.5")
                    .containsEntry("status", "ON_ROUTE")
                    .containsEntry("route_id", "R-1")
                    .containsEntry("next_stop_id", "S-2")
                    .containsEntry("distance_to_next_stop_m", "1234.5")
                    .containsEntry("distance_from_route_m", "12.25")
                    .containsEntry("enrichment_stale", "true")
                    .containsEntry("updated_at", "1795000001000")
                    .doesNotContainValue("");
        });
    }

    @Test
    void fieldsWithoutValueAreSentEmptySoThatTheScriptDeletesThemAndNoEarlierValueOutlivesItsFix() {
        Script script = Script.of(JedisCurrentStateStore.arguments(List.of(WITHOUT_ROUTE, OTHER), UPDATED_AT, TTL));

        assertThat(script.vehicles()).hasSize(2);
        Map<String, String> withoutRoute = script.vehicles().get(0);
        assertThat(withoutRoute)
                .containsEntry("battery_level", "")
                .containsEntry("route_id", "")
                .containsEntry("next_stop_id", "")
                .containsEntry("distance_to_next_stop_m", "")
                .containsEntry("distance_from_route_m", "")
                .containsEntry("status", "STOPPED")
                .containsEntry("enrichment_stale", "false");
        assertThat(script.vehicles().get(1)).containsEntry("vehicle_id", "VH-0002");
    }

    @Test
    void failureNamesTheServerButNeverThePassword() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        URI uri = URI.create("redis://fleet-pipeline:very-secret-password@127.0.0.1:" + port);

        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open()) {
            assertThatThrownBy(() -> store.applyNewerWins(List.of(ON_ROUTE), UPDATED_AT))
                    .isInstanceOf(CurrentStateStoreException.class)
                    .hasMessageStartingWith("Redis at 127.0.0.1:" + port + " failed: ")
                    .hasMessageNotContaining("very-secret-password")
                    .hasMessageNotContaining("fleet-pipeline");
        }
    }

    @Test
    void scriptIsBundled() {
        assertThat(JedisCurrentStateStore.readScript()).contains("HSET", "HDEL", "GEOADD", "ZADD");
    }

    /** The arguments split as the script reads them: the header, then one value per field for each vehicle. */
    private record Script(List<String> readFields, List<Map<String, String>> vehicles) {
        static Script of(List<String> arguments) {
            int fields = Integer.parseInt(arguments.get(0));
            assertThat(arguments.get(5)).as("the time to live in ms").isEqualTo("604800000");
            List<String> names = arguments.subList(6, 6 + fields);
            List<String> readFields = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                readFields.add(names.get(Integer.parseInt(arguments.get(i)) - 1));
            }
            List<String> values = arguments.subList(6 + fields, arguments.size());
            assertThat(values.size() % fields)
                    .as("a value for every field of every vehicle")
                    .isZero();
            List<Map<String, String>> vehicles = new ArrayList<>();
            for (int start = 0; start < values.size(); start += fields) {
                Map<String, String> vehicle = new LinkedHashMap<>();
                for (int i = 0; i < fields; i++) {
                    vehicle.put(names.get(i), values.get(start + i));
                }
                vehicles.add(vehicle);
            }
            return new Script(readFields, vehicles);
        }
    }
}
