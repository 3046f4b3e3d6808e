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
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisCredentials;

/**
 * The script's calling convention and the connection settings; the script itself and authentication are tested
 * against a real Redis in JedisCurrentStateStoreIT.
 */
class JedisCurrentStateStoreTest {
    private static final Instant EVENT_TIME = Instant.ofEpochMilli(1_795_000_000_123L);
    private static final Instant UPDATED_AT = Instant.ofEpochMilli(1_795_000_001_000L);
    private static final Duration TIMEOUT = Duration.ofMillis(1_500);
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
    private static final VehicleState WITHOUT_ROUTE = new VehicleState(
            "VH-0001", EVENT_TIME, 40.5, -3.25, 0.5, 271.0, null, VehicleStatus.STOPPED, null, null, null, null, false);

    @Test
    void keysAreTheVehicleHashTheGeoIndexAndTheLastSeenSet() {
        assertThat(JedisCurrentStateStore.keys(ON_ROUTE))
                .containsExactly(RedisKeys.vehicle("VH-0001"), RedisKeys.GEO_INDEX, RedisKeys.LAST_SEEN);
    }

    @Test
    void everyVehicleFieldIsWrittenWhenTheFixHasEveryValue() {
        Script script = Script.of(JedisCurrentStateStore.arguments(ON_ROUTE, UPDATED_AT));

        assertThat(script.header())
                .containsExactly("VH-0001", "1795000000123", "-3.25", "40.5", VehicleField.EVENT_TIME.field());
        assertThat(script.deleted()).isEmpty();
        assertThat(script.written().keySet())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(VehicleField.values())
                        .map(VehicleField::field)
                        .toList());
        assertThat(script.written())
                .containsEntry("event_time", "1795000000123")
                .containsEntry("latitude", "40.5")
                .containsEntry("battery_level", "81.5")
                .containsEntry("status", "ON_ROUTE")
                .containsEntry("route_id", "R-1")
                .containsEntry("next_stop_id", "S-2")
                .containsEntry("distance_to_next_stop_m", "1234.5")
                .containsEntry("distance_from_route_m", "12.25")
                .containsEntry("enrichment_stale", "true")
                .containsEntry("updated_at", "1795000001000");
    }

    @Test
    void fieldsWithoutValueAreDeletedSoThatNoEarlierValueOutlivesItsFix() {
        Script script = Script.of(JedisCurrentStateStore.arguments(WITHOUT_ROUTE, UPDATED_AT));

        assertThat(script.deleted())
                .containsExactlyInAnyOrder(
                        "battery_level",
                        "route_id",
                        "next_stop_id",
                        "distance_to_next_stop_m",
                        "distance_from_route_m");
        assertThat(script.written())
                .containsEntry("status", "STOPPED")
                .containsEntry("enrichment_stale", "false")
                .doesNotContainKeys(script.deleted().toArray(String[]::new));
        List<String> everyField = new ArrayList<>(script.written().keySet());
        everyField.addAll(script.deleted());
        assertThat(everyField)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(VehicleField.values())
                        .map(VehicleField::field)
                        .toList());
    }

    @Test
    void passwordOfTheUriIsPassedToRedis() {
        JedisClientConfig config =
                JedisCurrentStateStore.clientConfig(URI.create("redis://:pass-word_1@redis:6379"), TIMEOUT);

        RedisCredentials credentials = config.getCredentialsProvider().get();
        assertThat(credentials.getUser()).isNull();
        assertThat(credentials.getPassword()).containsExactly("pass-word_1".toCharArray());
        assertThat(config.isSsl()).isFalse();
    }

    @Test
    void aclUserDatabaseAndTlsOfTheUriArePassedToRedis() {
        JedisClientConfig config = JedisCurrentStateStore.clientConfig(
                URI.create("rediss://fleet-pipeline:pass-word@redis:6380/2"), TIMEOUT);

        RedisCredentials credentials = config.getCredentialsProvider().get();
        assertThat(credentials.getUser()).isEqualTo("fleet-pipeline");
        assertThat(credentials.getPassword()).containsExactly("pass-word".toCharArray());
        assertThat(config.getDatabase()).isEqualTo(2);
        assertThat(config.isSsl()).isTrue();
    }

    @Test
    void requestTimeoutBoundsConnectingAndEveryRequest() {
        JedisClientConfig config = JedisCurrentStateStore.clientConfig(URI.create("redis://redis:6379"), TIMEOUT);

        assertThat(config.getConnectionTimeoutMillis()).isEqualTo(1_500);
        assertThat(config.getSocketTimeoutMillis()).isEqualTo(1_500);
    }

    @Test
    void failureNamesTheServerButNeverThePassword() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        URI uri = URI.create("redis://fleet-pipeline:very-secret-password@127.0.0.1:" + port);

        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(uri, TIMEOUT).open()) {
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

    /** The arguments split as the script reads them. */
    private record Script(List<String> header, List<String> deleted, Map<String, String> written) {
        static Script of(List<String> arguments) {
            int deletedCount = Integer.parseInt(arguments.get(5));
            List<String> deleted = arguments.subList(6, 6 + deletedCount);
            Map<String, String> written = new LinkedHashMap<>();
            List<String> pairs = arguments.subList(6 + deletedCount, arguments.size());
            assertThat(pairs.size() % 2).as("field/value pairs").isZero();
            for (int i = 0; i < pairs.size(); i += 2) {
                assertThat(written.put(pairs.get(i), pairs.get(i + 1)))
                        .as("field %s written once", pairs.get(i))
                        .isNull();
            }
            return new Script(arguments.subList(0, 5), deleted, written);
        }
    }
}
