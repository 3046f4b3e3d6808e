package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.process.FreePorts;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.redis.RedisAcl;
import io.fleetlake.redis.RedisConnections;
import io.fleetlake.redis.RedisRole;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration TTL = Duration.ofDays(7);
    private static final Map<RedisRole, String> PASSWORDS = Map.of(
            RedisRole.PIPELINE, "pipeline-password",
            RedisRole.DASHBOARD, "dashboard-password",
            RedisRole.MONITOR, "monitor-password",
            RedisRole.ADMIN, "admin-password");

    private static RedisServer server;
    private static URI uri;
    private static RedisServer protectedServer;
    private static int protectedPort;

    @BeforeAll
    static void startRedis() throws IOException {
        int port = freePort();
        server = RedisServer.newRedisServer()
                .bind("127.0.0.1")
                .port(port)
                .setting("save \"\"")
                .build();
        server.start();
        uri = URI.create("redis://127.0.0.1:" + port);

        // The fleet's roles, as the stack and compose grant them: default off, the pipeline's user for the sink.
        protectedPort = freePort();
        Path aclFile = Files.createTempFile("fleet-redis", ".acl");
        Files.writeString(aclFile, RedisAcl.render(PASSWORDS));
        protectedServer = RedisServer.newRedisServer()
                .bind("127.0.0.1")
                .port(protectedPort)
                .setting("save \"\"")
                .setting("aclfile " + aclFile)
                .build();
        protectedServer.start();
    }

    @AfterAll
    static void stopRedis() throws IOException {
        server.stop();
        protectedServer.stop();
    }

    @Test
    void pipelineRoleLoadsAndRunsTheScriptTheDashboardRoleCannot() {
        VehicleState update = state("VH-AUTH", T1, 40.0, -3.0, 1.0);
        URI pipeline = role(RedisRole.PIPELINE);
        URI dashboard = role(RedisRole.DASHBOARD);

        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(pipeline, TIMEOUT, TTL).open()) {
            assertThat(store.applyNewerWins(List.of(update), UPDATED_AT)).containsExactly(true);
            assertThat(store.applyNewerWins(List.of(update), UPDATED_AT)).containsExactly(false);
        }
        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(dashboard, TIMEOUT, TTL).open()) {
            assertThatThrownBy(() -> store.applyNewerWins(List.of(state("VH-AUTH", T2, 41.0, -3.0, 1.0)), UPDATED_AT))
                    .isInstanceOf(CurrentStateStoreException.class)
                    .hasMessageContaining("NOPERM")
                    .hasMessageNotContaining("dashboard-password");
        }
    }

    @Test
    void vehicleExpiresTheTtlAfterItsLastWriteAndThenLeavesTheIndexes() {
        try (CurrentStateStore shortLived = JedisCurrentStateStore.factory(uri, TIMEOUT, Duration.ofSeconds(1))
                        .open();
                CurrentStateStore store =
                        JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open();
                RedisClient redis = RedisConnections.pooled(uri, TIMEOUT)) {
            assertThat(shortLived.applyNewerWins(List.of(state("VH-TTL", T1, 40.0, -3.0, 1.0)), UPDATED_AT))
                    .containsExactly(true);
            assertThat(redis.pttl(RedisKeys.vehicle("VH-TTL"))).isBetween(1L, 1_000L);
            assertThat(redis.zscore(RedisKeys.LAST_SEEN, "VH-TTL")).isNotNull();

            await().atMost(Duration.ofSeconds(10)).until(() -> !redis.exists(RedisKeys.vehicle("VH-TTL")));
            // The next write of any vehicle drops the expired one from the indexes.
            assertThat(store.applyNewerWins(List.of(state("VH-TTL-OTHER", T1, 41.0, -3.0, 1.0)), UPDATED_AT))
                    .containsExactly(true);

            assertThat(redis.zscore(RedisKeys.LAST_SEEN, "VH-TTL")).isNull();
            assertThat(redis.zscore(RedisKeys.GEO_INDEX, "VH-TTL")).isNull();
            assertThat(redis.zscore(RedisKeys.EXPIRY, "VH-TTL")).isNull();
            assertThat(redis.zscore(RedisKeys.LAST_SEEN, "VH-TTL-OTHER")).isEqualTo((double) T1.toEpochMilli());
            assertThat(redis.pttl(RedisKeys.vehicle("VH-TTL-OTHER")))
                    .as("7 days, set by the same script")
                    .isGreaterThan(TTL.minusMinutes(1).toMillis());
        }
    }

    @Test
    void wrongOrMissingPasswordFailsWithoutShowingIt() {
        VehicleState update = state("VH-AUTH-FAIL", T1, 40.0, -3.0, 1.0);
        URI wrongPassword = URI.create("redis://pipeline:wrong-password@127.0.0.1:" + protectedPort);
        URI noPassword = URI.create("redis://127.0.0.1:" + protectedPort);

        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(wrongPassword, TIMEOUT, TTL).open()) {
            assertThatThrownBy(() -> store.applyNewerWins(List.of(update), UPDATED_AT))
                    .isInstanceOf(CurrentStateStoreException.class)
                    .hasMessageStartingWith("Redis at 127.0.0.1:" + protectedPort + " failed")
                    .hasMessageNotContaining("wrong-password");
        }
        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(noPassword, TIMEOUT, TTL).open()) {
            assertThatThrownBy(() -> store.applyNewerWins(List.of(update), UPDATED_AT))
                    .isInstanceOf(CurrentStateStoreException.class)
                    .hasMessageContaining("NOAUTH");
        }
    }

    @Test
    void newerFixWinsOlderAndEqualOnesChangeNothing() {
        VehicleState older = state("VH-OOO", T1, 40.1, -3.1, 30.0);
        VehicleState newer = state("VH-OOO", T2, 40.2, -3.2, 40.0);
        VehicleState sameTimeOtherValues = state("VH-OOO", T2, 41.0, -4.0, 99.0);

        try (CurrentStateStore store =
                        JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open();
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
        try (CurrentStateStore store =
                JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open()) {
            store.applyNewerWins(List.of(state("VH-B1", T2, 40.0, -3.0, 1.0)), UPDATED_AT);

            List<Boolean> applied = store.applyNewerWins(
                    List.of(state("VH-B1", T1, 40.0, -3.0, 1.0), state("VH-B2", T1, 41.0, -2.0, 1.0)), UPDATED_AT);

            assertThat(applied).containsExactly(false, true);
        }
    }

    @Test
    void aVehicleKeyHoldingSomethingElseIsLeftAloneAndTheRestOfTheBatchIsApplied() {
        try (CurrentStateStore store =
                        JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open();
                RedisClient redis = RedisClient.create(uri)) {
            redis.set(RedisKeys.vehicle("VH-W1"), "not a hash");

            List<Boolean> applied = store.applyNewerWins(
                    List.of(state("VH-W1", T1, 40.0, -3.0, 1.0), state("VH-W2", T1, 41.0, -2.0, 1.0)), UPDATED_AT);

            assertThat(applied).containsExactly(false, true);
            assertThat(redis.get(RedisKeys.vehicle("VH-W1"))).isEqualTo("not a hash");
            assertThat(redis.hget(RedisKeys.vehicle("VH-W2"), VehicleField.EVENT_TIME.field()))
                    .isEqualTo(Long.toString(T1.toEpochMilli()));
        }
    }

    @Test
    void fieldsOfTheOlderFixThatTheNewerOneLacksAreRemoved() {
        VehicleState onRoute = new VehicleState(
                "VH-R", T1, 40.0, -3.0, 30.0, 90.0, 77.0, VehicleStatus.ON_ROUTE, "R-1", "S-1", 800.0, 5.0, false);
        VehicleState routeEnded = new VehicleState(
                "VH-R", T2, 40.0, -3.0, 0.0, 90.0, null, VehicleStatus.NO_ROUTE, null, null, null, null, false);

        try (CurrentStateStore store =
                        JedisCurrentStateStore.factory(uri, TIMEOUT, TTL).open();
                RedisClient redis = RedisClient.create(uri)) {
            store.applyNewerWins(List.of(onRoute), UPDATED_AT);
            assertThat(redis.hgetAll(RedisKeys.vehicle("VH-R")))
                    .containsEntry(VehicleField.ROUTE_ID.field(), "R-1")
                    .containsEntry(VehicleField.NEXT_STOP_ID.field(), "S-1")
                    .containsEntry(VehicleField.DISTANCE_TO_NEXT_STOP_M.field(), "800.0")
                    .containsEntry(VehicleField.BATTERY_LEVEL.field(), "77.0")
                    .containsEntry(VehicleField.STATUS.field(), "ON_ROUTE");

            assertThat(store.applyNewerWins(List.of(routeEnded), UPDATED_AT)).containsExactly(true);

            assertThat(redis.hgetAll(RedisKeys.vehicle("VH-R")))
                    .containsEntry(VehicleField.STATUS.field(), "NO_ROUTE")
                    .containsEntry(VehicleField.ENRICHMENT_STALE.field(), "false")
                    .containsEntry(VehicleField.EVENT_TIME.field(), Long.toString(T2.toEpochMilli()))
                    .doesNotContainKeys(
                            VehicleField.ROUTE_ID.field(),
                            VehicleField.NEXT_STOP_ID.field(),
                            VehicleField.DISTANCE_TO_NEXT_STOP_M.field(),
                            VehicleField.DISTANCE_FROM_ROUTE_M.field(),
                            VehicleField.BATTERY_LEVEL.field());
        }
    }

    private static URI role(RedisRole role) {
        return RedisConnections.uri("127.0.0.1", protectedPort, role, PASSWORDS.get(role));
    }

    private static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }

    private static VehicleState state(
            String vehicleId, Instant eventTime, double latitude, double longitude, double speedKmh) {
        return new VehicleState(
                vehicleId,
                eventTime,
                latitude,
                longitude,
                speedKmh,
                10.0,
                null,
                VehicleStatus.NO_ROUTE,
                null,
                null,
                null,
                null,
                false);
    }
}
