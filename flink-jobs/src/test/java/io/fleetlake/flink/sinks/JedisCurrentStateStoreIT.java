package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.GeoCoordinate;
import redis.clients.jedis.RedisClient;
import redis.embedded.RedisServer;

/** The newer-wins Lua script against a real redis-server (the binary bundled with embedded-redis). */
class JedisCurrentStateStoreIT {
    private static final Instant UPDATED_AT = Instant.parse("2026-11-29T18:00:00Z");
    private static final Instant T1 = Instant.parse("2026-11-29T17:00:01Z");
    private static final Instant T2 = Instant.parse("2026-11-29T17:00:06Z");

    private static RedisServer server;
    private static URI uri;

    @BeforeAll
    static void startRedis() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        server = RedisServer.newRedisServer()
                .bind("127.0.0.1")
                .port(port)
                .setting("save \"\"")
                .build();
        server.start();
        uri = URI.create("redis://127.0.0.1:" + port);
    }

    @AfterAll
    static void stopRedis() throws IOException {
        server.stop();
    }

    @Test
    void newerFixWinsOlderAndEqualOnesChangeNothing() {
        VehicleState older = new VehicleState("VH-OOO", T1, 40.1, -3.1, 30.0, 10.0);
        VehicleState newer = new VehicleState("VH-OOO", T2, 40.2, -3.2, 40.0, 20.0);
        VehicleState sameTimeOtherValues = new VehicleState("VH-OOO", T2, 41.0, -4.0, 99.0, 99.0);

        try (CurrentStateStore store = JedisCurrentStateStore.factory(uri).open();
                RedisClient redis = RedisClient.create(uri)) {
            assertThat(store.applyNewerWins(List.of(newer), UPDATED_AT)).containsExactly(true);
            assertThat(store.applyNewerWins(List.of(older), UPDATED_AT))
                    .as("an out-of-order fix")
                    .containsExactly(false);
            assertThat(store.applyNewerWins(List.of(newer), UPDATED_AT.plusSeconds(1)))
                    .as("a resend")
                    .containsExactly(false);
            assertThat(store.applyNewerWins(List.of(sameTimeOtherValues), UPDATED_AT))
                    .as("equal event time")
                    .containsExactly(false);

            assertThat(redis.hgetAll(RedisKeys.vehicle("VH-OOO")))
                    .containsEntry(VehicleField.EVENT_TIME.field(), Long.toString(T2.toEpochMilli()))
                    .containsEntry(VehicleField.LATITUDE.field(), "40.2")
                    .containsEntry(VehicleField.LONGITUDE.field(), "-3.2")
                    .containsEntry(VehicleField.SPEED_KMH.field(), "40.0")
                    .containsEntry(VehicleField.UPDATED_AT.field(), Long.toString(UPDATED_AT.toEpochMilli()));
            assertThat(redis.zscore(RedisKeys.LAST_SEEN, "VH-OOO")).isEqualTo((double) T2.toEpochMilli());
            GeoCoordinate position = redis.geopos(RedisKeys.GEO_INDEX, "VH-OOO").get(0);
            assertThat(position.getLatitude()).isCloseTo(40.2, offset(1e-5));
            assertThat(position.getLongitude()).isCloseTo(-3.2, offset(1e-5));
        }
    }

    @Test
    void batchAppliesEachVehicleIndependently() {
        try (CurrentStateStore store = JedisCurrentStateStore.factory(uri).open()) {
            store.applyNewerWins(List.of(new VehicleState("VH-B1", T2, 40.0, -3.0, 1.0, 1.0)), UPDATED_AT);

            List<Boolean> applied = store.applyNewerWins(
                    List.of(
                            new VehicleState("VH-B1", T1, 40.0, -3.0, 1.0, 1.0),
                            new VehicleState("VH-B2", T1, 41.0, -2.0, 1.0, 1.0)),
                    UPDATED_AT);

            assertThat(applied).containsExactly(false, true);
        }
    }
}
