package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.Position;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Redis goes away while positions flow: the pipeline keeps committing to Iceberg (nothing lost, nothing blocked), and
 * when Redis is back the current state converges to every vehicle's newest position.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class RedisOutageIT {
    private static final String PREFIX = "RDS-";
    private static final int VEHICLES = 5;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @Test
    void stateConvergesAfterAnOutageAndIcebergCommitsContinue(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        Instant start = Instant.now().minus(25, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> before = positions(start, 0, 10);
        List<Position> during = positions(start, 10, 20);
        List<Position> after = positions(start, 20, 25);

        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "redis-outage-test")) {
            publishAll(publisher, before);
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).until(() -> rows(trino) == before.size());

            running.stack().stop(FleetStack.REDIS);
            try {
                publishAll(publisher, during);
                await().atMost(TIMEOUT)
                        .pollInterval(Duration.ofSeconds(2))
                        .until(() -> rows(trino) == before.size() + during.size());
                assertThat(running.stack().component(FleetStack.PIPELINE).isHealthy())
                        .as("the pipeline keeps running while Redis is down")
                        .isTrue();
            } finally {
                running.stack().start(FleetStack.REDIS);
            }
            publishAll(publisher, after);
        }

        int total = before.size() + during.size() + after.size();
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).until(() -> rows(trino) == total);
        RedisInspector redis = new RedisInspector(URI.create(running.settings().redisUri(RedisRole.MONITOR)));
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
                Position newest = after.get(after.size() - VEHICLES + vehicle);
                assertThat(redis.vehicle(newest.vehicleId()))
                        .as("current state of %s", newest.vehicleId())
                        .containsEntry(
                                VehicleField.EVENT_TIME.field(),
                                Long.toString(newest.eventTime().toEpochMilli()));
            }
        });
    }

    private static void publishAll(TestPublisher publisher, List<Position> positions) throws InterruptedException {
        for (Position position : positions) {
            publisher.publish(position, PayloadFormat.AVRO);
        }
        publisher.awaitAcknowledgements();
    }

    /** Fixes {@code from} (inclusive) to {@code to} (exclusive) of every vehicle, 5 s apart, fix by fix. */
    private static List<Position> positions(Instant start, int from, int to) {
        List<Position> positions = new ArrayList<>();
        for (int fix = from; fix < to; fix++) {
            for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
                positions.add(Position.of(
                        PREFIX + (vehicle + 1),
                        start.plusSeconds(5L * fix),
                        37.99 + vehicle * 0.01 + fix * 0.0003,
                        -1.13,
                        40.0,
                        0.0));
            }
        }
        return positions;
    }

    private static long rows(TrinoInspector trino) throws Exception {
        return Long.parseLong(trino.query(
                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?",
                        PREFIX + "%")
                .get(0)
                .get(0));
    }
}
