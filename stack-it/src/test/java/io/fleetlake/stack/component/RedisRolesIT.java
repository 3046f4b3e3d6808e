package io.fleetlake.stack.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.redis.RedisConnections;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.EmbeddedServers;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The embedded stack's Redis component exactly as the stack starts it (its ACL file generated for the data folder, its
 * memory limit) on a real redis-server: each role may do its part and is refused the rest, by Redis itself.
 */
class RedisRolesIT {
    private static final String VEHICLE = "vehicle:VH-ROLES";

    private static StackSettings settings;
    private static Component redis;

    @BeforeAll
    static void startRedis() {
        Path data =
                Path.of("target", "redis-roles-" + Instant.now().toEpochMilli()).toAbsolutePath();
        settings = StackSettings.from(
                ConfigSource.of(Map.of(
                        StackSettings.FREE_PORTS, "true",
                        StackSettings.DATA_DIRECTORY, data.toString(),
                        // Small, so that the limit is reached within a second.
                        StackSettings.REDIS_MAXMEMORY, "8mb")),
                data);
        redis = new EmbeddedServers(settings, FleetHome.locate())
                .components().stream()
                        .filter(component -> component.name().equals(FleetStack.REDIS))
                        .findFirst()
                        .orElseThrow();
        redis.start();
        await().atMost(Duration.ofSeconds(30)).until(redis::isHealthy);
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.stop();
        }
    }

    @AfterEach
    void emptyRedis() {
        try (Jedis admin = connect(RedisRole.ADMIN)) {
            admin.flushAll();
        }
    }

    private static Jedis connect(RedisRole role) {
        return RedisConnections.single(URI.create(settings.redisUri(role)), RedisConnections.DEFAULT_TIMEOUT);
    }

    private static URI uri(String userInfo) {
        return URI.create("redis://" + userInfo + settings.host() + ":" + settings.port(StackPort.REDIS));
    }

    @Test
    void anonymousClientIsRefused() {
        try (Jedis anonymous = RedisConnections.single(uri(""), RedisConnections.DEFAULT_TIMEOUT)) {
            assertThatThrownBy(() -> anonymous.get(VEHICLE))
                    .isInstanceOf(JedisDataException.class)
                    .hasMessageStartingWith("NOAUTH");
        }
    }

    @Test
    void wrongPasswordAndTheDefaultUserAreRefused() {
        assertThatThrownBy(() -> {
                    try (Jedis wrong = RedisConnections.single(
                            uri("pipeline:not-the-password@"), RedisConnections.DEFAULT_TIMEOUT)) {
                        wrong.ping();
                    }
                })
                .isInstanceOf(JedisDataException.class)
                .hasMessageContaining("WRONGPASS");
        assertThatThrownBy(() -> {
                    try (Jedis wrong = RedisConnections.single(
                            uri("default:" + settings.redisPassword(RedisRole.ADMIN) + "@"),
                            RedisConnections.DEFAULT_TIMEOUT)) {
                        wrong.ping();
                    }
                })
                .isInstanceOf(JedisDataException.class)
                .hasMessageContaining("WRONGPASS");
    }

    @Test
    void pipelineWritesVehiclesButCannotFlushConfigureOrTouchOtherKeys() {
        try (Jedis pipeline = connect(RedisRole.PIPELINE)) {
            pipeline.hset(VEHICLE, "event_time", "1");
            pipeline.zadd("fleet:last_seen", 1, "VH-ROLES");
            assertThat(pipeline.hget(VEHICLE, "event_time")).isEqualTo("1");
            assertThat(pipeline.evalsha(
                            pipeline.scriptLoad("return redis.call('HGET', KEYS[1], 'event_time')"), 1, VEHICLE))
                    .isEqualTo("1");

            assertThatThrownBy(pipeline::flushAll).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(pipeline::flushDB).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> pipeline.configGet("maxmemory")).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> pipeline.keys("*")).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> pipeline.set("session:1", "x")).hasMessageStartingWith("NOPERM");
        }
    }

    @Test
    void dashboardOnlyReads() {
        try (Jedis admin = connect(RedisRole.ADMIN)) {
            admin.hset(VEHICLE, "event_time", "2");
        }
        try (Jedis dashboard = connect(RedisRole.DASHBOARD)) {
            assertThat(dashboard.hgetAll(VEHICLE)).containsEntry("event_time", "2");
            assertThatThrownBy(() -> dashboard.set(VEHICLE + ":x", "x")).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> dashboard.hset(VEHICLE, "event_time", "3")).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(dashboard::flushAll).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> dashboard.publish("fleet", "x")).hasMessageStartingWith("NOPERM");
        }
    }

    @Test
    void monitorReadsAndAsksInfoButCannotWrite() {
        try (Jedis monitor = connect(RedisRole.MONITOR)) {
            assertThat(monitor.info("memory")).contains("maxmemory:" + 8 * 1024 * 1024);
            assertThat(monitor.info("memory")).contains("maxmemory_policy:noeviction");
            assertThat(monitor.zcard("fleet:last_seen")).isZero();
            assertThatThrownBy(() -> monitor.del(VEHICLE)).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(() -> monitor.configSet("maxmemory", "0")).hasMessageStartingWith("NOPERM");
            assertThatThrownBy(monitor::shutdown).hasMessageStartingWith("NOPERM");
        }
    }

    @Test
    void fullRedisRefusesWritesWithOomInsteadOfEvictingAVehicle() {
        String value = "x".repeat(64 * 1024);
        try (Jedis pipeline = connect(RedisRole.PIPELINE)) {
            pipeline.hset("vehicle:VH-FIRST", "event_time", "1");
            JedisDataException refused = null;
            for (int vehicle = 0; vehicle < 1_000 && refused == null; vehicle++) {
                try {
                    pipeline.hset("vehicle:VH-" + vehicle, "padding", value);
                } catch (JedisDataException e) {
                    refused = e;
                }
            }

            assertThat(refused)
                    .as("8 MB are full after at most 64 MB of writes")
                    .isNotNull()
                    .hasMessageStartingWith("OOM command not allowed");
            // noeviction: what was written before is all still there.
            assertThat(pipeline.hget("vehicle:VH-FIRST", "event_time")).isEqualTo("1");
            assertThat(pipeline.exists("vehicle:VH-0")).isTrue();
        }
        try (Jedis monitor = connect(RedisRole.MONITOR)) {
            assertThat(monitor.info("errorstats")).contains("errorstat_OOM:count=");
        }
    }
}
