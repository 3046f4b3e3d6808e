package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The walking skeleton on real components: positions published over MQTT reach Iceberg (counted through Trino)
 * exactly once, a device resend becomes one row, an undecodable payload lands in the dead-letter topic with its
 * original bytes, Redis holds each vehicle's newest position even when an older fix arrives last, and time travel to
 * an earlier snapshot returns the earlier count.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class PipelineEndToEndIT {
    private static final String PREFIX = "E2E-";
    private static final int VEHICLES = 4;
    private static final int FIXES_PER_BATCH = 10;
    private static final Duration COMMIT_TIMEOUT = Duration.ofMinutes(4);

    @Test
    void positionsFlowExactlyOnceIntoIcebergRedisAndTheDeadLetterTopic(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        Instant start = Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> firstBatch = batch(start, 0);
        List<Position> secondBatch = batch(start, FIXES_PER_BATCH);
        byte[] undecodable = "\u0000\u0001 not a position".getBytes(StandardCharsets.UTF_8);

        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "e2e-test")) {
            publisher.publishAll(firstBatch);
            // A device resend: the same fix, byte for byte, published again.
            publisher.publish(firstBatch.get(3), PayloadFormat.JSON);
            publisher.publishRaw(MqttTopics.positionTopic(PREFIX + "BAD"), undecodable);
            publisher.awaitAcknowledgements();

            await().atMost(COMMIT_TIMEOUT)
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> rows(trino, ""), count -> count == firstBatch.size());
            long firstSnapshot = latestSnapshotId(trino);

            publisher.publishAll(secondBatch);
            // An older fix arriving last must be stored in history but must not move the vehicle back in Redis.
            Position late = Position.of(vehicle(0), start.minusSeconds(60), 40.3995, -3.7004, 10.0, 90.0);
            publisher.publish(late, PayloadFormat.JSON);
            publisher.publish(secondBatch.get(5), PayloadFormat.JSON);
            publisher.awaitAcknowledgements();

            int expected = firstBatch.size() + secondBatch.size() + 1;
            await().atMost(COMMIT_TIMEOUT)
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> rows(trino, ""), count -> count >= expected);

            assertThat(rows(trino, "")).isEqualTo(expected);
            assertThat(single(
                            trino,
                            "SELECT count(*) FROM (SELECT DISTINCT vehicle_id, event_time FROM "
                                    + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?)"))
                    .isEqualTo(expected);
            assertThat(rows(trino, " FOR VERSION AS OF " + firstSnapshot))
                    .as("time travel to the snapshot that held the first batch")
                    .isEqualTo(firstBatch.size());

            assertDeadLetter(running, undecodable);
            assertRedisHoldsNewestPositions(running, secondBatch);
        }
    }

    private static void assertDeadLetter(RunningStack running, byte[] undecodable) {
        KafkaInspector kafka = new KafkaInspector(running.settings().kafkaBootstrapServers());
        await().atMost(COMMIT_TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> kafka.readAll(Topics.DLQ_POSITIONS).stream()
                        .anyMatch(record -> Arrays.equals(record.value(), undecodable)));
        ConsumerRecord<byte[], byte[]> deadLetter = kafka.readAll(Topics.DLQ_POSITIONS).stream()
                .filter(record -> Arrays.equals(record.value(), undecodable))
                .findFirst()
                .orElseThrow();
        assertThat(header(deadLetter, MessageHeaders.DLQ_REASON)).isEqualTo(RejectionReason.MALFORMED_PAYLOAD.name());
        assertThat(header(deadLetter, MessageHeaders.DLQ_DETAIL)).contains("neither Avro");
        assertThat(header(deadLetter, MessageHeaders.DLQ_SOURCE_TOPIC)).isEqualTo(Topics.RAW_POSITIONS);
        assertThat(header(deadLetter, MessageHeaders.DLQ_SOURCE_OFFSET)).matches("\\d+");
    }

    private static void assertRedisHoldsNewestPositions(RunningStack running, List<Position> newestBatch) {
        RedisInspector redis = new RedisInspector(URI.create(running.settings().redisUri(RedisRole.MONITOR)));
        for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
            String vehicleId = vehicle(vehicle);
            Position newest = newestBatch.stream()
                    .filter(position -> position.vehicleId().equals(vehicleId))
                    .reduce((first, second) -> second)
                    .orElseThrow();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<String, String> state = redis.vehicle(vehicleId);
                assertThat(state)
                        .containsEntry(
                                VehicleField.EVENT_TIME.field(),
                                Long.toString(newest.eventTime().toEpochMilli()));
                assertThat(Double.parseDouble(state.get(VehicleField.LATITUDE.field())))
                        .isEqualTo(newest.latitude());
                assertThat(Double.parseDouble(state.get(VehicleField.LONGITUDE.field())))
                        .isEqualTo(newest.longitude());
            });
        }
    }

    private static List<Position> batch(Instant start, int firstFix) {
        List<Position> positions = new ArrayList<>();
        for (int fix = firstFix; fix < firstFix + FIXES_PER_BATCH; fix++) {
            for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
                positions.add(new Position(
                        vehicle(vehicle),
                        start.plusSeconds(5L * fix),
                        40.4 + vehicle * 0.1 + fix * 0.0005,
                        -3.7 + fix * 0.0004,
                        45.0 + fix,
                        38.0,
                        650.0,
                        5.0,
                        9,
                        null));
            }
        }
        return positions;
    }

    private static String vehicle(int index) {
        return PREFIX + String.format("%02d", index + 1);
    }

    private static long rows(TrinoInspector trino, String timeTravel) throws Exception {
        return single(
                trino,
                "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + timeTravel + " WHERE vehicle_id LIKE ?");
    }

    private static long single(TrinoInspector trino, String sql) throws Exception {
        return Long.parseLong(trino.query(sql, PREFIX + "%").get(0).get(0));
    }

    private static long latestSnapshotId(TrinoInspector trino) throws Exception {
        List<TrinoInspector.Snapshot> snapshots = trino.snapshots(Tables.POSITIONS);
        return snapshots.get(snapshots.size() - 1).snapshotId();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        assertThat(header).as("header %s", name).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
