package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.dlq.DeadLetterReprocessor;
import io.fleetlake.operations.dlq.DeadLetterReprocessor.Outcome;
import io.fleetlake.operations.dlq.DeadLetterReprocessor.Selection;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The incident this project was built to prevent, replayed on the real stack: a too-strict operating region (a bounding
 * box of mainland Spain) rejects real positions from the Canary Islands. Nothing is lost: every rejection lands in the
 * dead-letter topic with its original bytes and in {@code fleet.rejected_positions} with its reason, next to a mixed
 * v1/v2 fleet whose positions are accepted. After the rule is fixed (and a firmware's new schema is added),
 * reprocessing recovers the wrongly rejected positions exactly once, however often it runs.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class ValidationAndReprocessIT {
    private static final String PREFIX = "VAL-";
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    @Test
    void rejectsPreciselyKeepsEverythingAndReprocessingRecoversExactlyOnce(RunningStack running) throws Exception {
        Instant testStart = Instant.now();
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        PositionSchemas bundled = PositionSchemas.bundled();
        PositionCodec codec = new PositionCodec(bundled);
        Schema firmwareThree = schema("position-v3.avsc");
        PositionCodec firmwareThreeCodec = new PositionCodec(bundled.plus("position-v3.avsc", firmwareThree));

        writeRules(running, "validation.region-file=" + resource("mainland-bounding-box.geojson") + "\n");
        running.stack().restart(FleetStack.PIPELINE);

        Instant t0 = Instant.now().minus(20, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Map<RejectionReason, Integer> expectedRejections = new EnumMap<>(RejectionReason.class);
        List<byte[]> rejectedPayloads = new ArrayList<>();
        int accepted = 0;
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "validation-test")) {
            // A mixed fleet: firmware 1 (Avro v1), firmware 2 (Avro v2 with battery_level) and JSON devices.
            for (int fix = 0; fix < 3; fix++) {
                Position madrid = position("VAL-01", t0.plusSeconds(5L * fix), 40.4168 + fix * 0.0004, -3.7038, null);
                publisher.publishRaw(topic(madrid), codec.encodeAvro(madrid, bundled.version(1)));
                Position seville =
                        position("VAL-02", t0.plusSeconds(5L * fix), 37.3891 + fix * 0.0004, -5.9845, 80.0 - fix);
                publisher.publishRaw(topic(seville), codec.encodeAvro(seville, bundled.version(2)));
                accepted += 2;
            }
            for (int fix = 0; fix < 2; fix++) {
                publisher.publish(
                        position("VAL-03", t0.plusSeconds(5L * fix), 39.4699, -0.3763 + fix * 0.0004, 55.5),
                        PayloadFormat.JSON);
                accepted++;
            }
            // A device resend (same bytes again: one row) and a conflicting resend (same time, other place).
            Position firstMadrid = position("VAL-01", t0, 40.4168, -3.7038, null);
            publisher.publishRaw(topic(firstMadrid), codec.encodeAvro(firstMadrid, bundled.version(1)));
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    position("VAL-02", t0, 37.5, -5.9845, 80.0),
                    expectedRejections,
                    RejectionReason.CONFLICTING_RESEND));
            // Wrongly rejected by the too-strict region: Las Palmas de Gran Canaria.
            for (int fix = 0; fix < 2; fix++) {
                rejectedPayloads.add(publish(
                        publisher,
                        codec,
                        position("VAL-04", t0.plusSeconds(5L * fix), 28.1235, -15.4363 + fix * 0.0004, 64.0),
                        expectedRejections,
                        RejectionReason.OUTSIDE_REGION));
            }
            // Rightly rejected, before and after the rule change.
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    position("VAL-05", t0, 48.8566, 2.3522, null),
                    expectedRejections,
                    RejectionReason.OUTSIDE_REGION));
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    new Position("VAL-06", t0, 41.6488, -0.8891, 251.0, 90.0, null, null, null, null),
                    expectedRejections,
                    RejectionReason.SPEED_TOO_HIGH));
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    position("VAL-07", Instant.now().plus(10, ChronoUnit.MINUTES), 41.6488, -0.8891, null),
                    expectedRejections,
                    RejectionReason.EVENT_TIME_IN_FUTURE));
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    position("VAL-08", Instant.now().minus(30, ChronoUnit.DAYS), 41.6488, -0.8891, null),
                    expectedRejections,
                    RejectionReason.EVENT_TIME_TOO_OLD));
            byte[] malformed = "{\"vehicle_id\": \"VAL-09\", \"latitude\": ".getBytes(StandardCharsets.UTF_8);
            publisher.publishRaw(MqttTopics.positionTopic("VAL-09"), malformed);
            expectedRejections.merge(RejectionReason.MALFORMED_PAYLOAD, 1, Integer::sum);
            rejectedPayloads.add(malformed);
            // Firmware 3 ships before the pipeline knows its schema.
            Position odometerDevice = position("VAL-10", t0, 42.8782, -8.5448, 90.0);
            byte[] unknownSchema = firmwareThreeCodec.encodeAvro(
                    odometerDevice, firmwareThreeCodec.schemas().latest());
            publisher.publishRaw(topic(odometerDevice), unknownSchema);
            expectedRejections.merge(RejectionReason.UNKNOWN_SCHEMA, 1, Integer::sum);
            rejectedPayloads.add(unknownSchema);
            byte[] oversized = ("{\"vehicle_id\":\"VAL-11\",\"padding\":\"" + "x".repeat(5000) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            publisher.publishRaw(MqttTopics.positionTopic("VAL-11"), oversized);
            expectedRejections.merge(RejectionReason.PAYLOAD_TOO_LARGE, 1, Integer::sum);
            rejectedPayloads.add(oversized);
            // A start-up GPS glitch: Madrid, then "Barcelona" ten seconds later, then Madrid again.
            publisher.publish(position("VAL-12", t0, 40.4168, -3.7038, null), PayloadFormat.AVRO);
            rejectedPayloads.add(publish(
                    publisher,
                    codec,
                    position("VAL-12", t0.plusSeconds(10), 41.3874, 2.1686, null),
                    expectedRejections,
                    RejectionReason.IMPLAUSIBLE_JUMP));
            publisher.publish(position("VAL-12", t0.plusSeconds(20), 40.4170, -3.7036, null), PayloadFormat.AVRO);
            accepted += 2;
            publisher.awaitAcknowledgements();
        }

        int expectedAccepted = accepted;
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(count(trino, Tables.POSITIONS, "")).isEqualTo(expectedAccepted);
            assertThat(rejectionsByReason(trino)).isEqualTo(asStrings(expectedRejections));
        });
        assertThat(distinctIdentities(trino)).isEqualTo(expectedAccepted);
        assertThat(
                        trino.query(
                                "SELECT vehicle_id, count(*), count(battery_level) FROM "
                                        + Tables.qualified(Tables.POSITIONS)
                                        + " WHERE vehicle_id IN ('VAL-01', 'VAL-02', 'VAL-03') GROUP BY vehicle_id ORDER BY vehicle_id"))
                .as("firmware 1 rows read battery_level as null, firmware 2 and JSON rows carry it")
                .containsExactly(List.of("VAL-01", "3", "0"), List.of("VAL-02", "3", "3"), List.of("VAL-03", "2", "2"));
        assertDeadLettersKeepOriginalBytes(running, rejectedPayloads);
        long beforeReprocessing = latestSnapshotId(trino);

        // The fix: the real operating region, and firmware 3's schema added; the pipeline restarts with both.
        writeRules(running, "");
        Files.writeString(running.extraSchemaDirectory().resolve("position-v3.avsc"), firmwareThree.toString(true));
        running.stack().restart(FleetStack.PIPELINE);

        DeadLetterReprocessor reprocessor =
                new DeadLetterReprocessor(running.settings().kafkaBootstrapServers(), running.validationRules());
        Selection selection = new Selection(
                Set.of(RejectionReason.OUTSIDE_REGION, RejectionReason.UNKNOWN_SCHEMA), Optional.of(testStart));
        Outcome first = reprocessor.reprocess(selection, false);
        assertThat(first.selected()).isEqualTo(4);
        assertThat(first.republished())
                .as("Las Palmas twice and the firmware 3 position")
                .isEqualTo(3);
        assertThat(first.stillRejected()).containsExactly(Map.entry(RejectionReason.OUTSIDE_REGION, 1L));

        int recovered = expectedAccepted + 3;
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(
                        count(trino, Tables.POSITIONS, ""))
                .isEqualTo(recovered));

        Outcome second = reprocessor.reprocess(selection, false);
        assertThat(second.republished()).isZero();
        assertThat(second.alreadyReprocessed()).isEqualTo(3);
        long afterSecondRun = latestSnapshotId(trino);
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> latestSnapshotId(trino) != afterSecondRun);
        assertThat(count(trino, Tables.POSITIONS, ""))
                .as("a second reprocessing adds nothing")
                .isEqualTo(recovered);
        assertThat(distinctIdentities(trino)).isEqualTo(recovered);
        assertThat(count(trino, Tables.POSITIONS, " FOR VERSION AS OF " + beforeReprocessing))
                .as("time travel to the snapshot before the reprocessing")
                .isEqualTo(expectedAccepted);
    }

    /**
     * A fix rejected as an implausible jump (a vehicle that was really carried: 505 km in 10 s), reprocessed by an
     * operator, lands in {@code fleet.positions} exactly once: the de-duplication only remembers accepted fixes (an
     * earlier layout remembered the rejected fix and dropped its republished copy as a resend), a republished fix is
     * not judged by the jump check again, and a second reprocessing republishes nothing.
     */
    @Test
    void reprocessedImplausibleJumpLandsExactlyOnce(RunningStack running) throws Exception {
        Instant testStart = Instant.now();
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        String vehicle = "JUMP-01";
        Instant t0 = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Position madrid = position(vehicle, t0, 40.4168, -3.7038, null);
        Position carried = position(vehicle, t0.plusSeconds(10), 41.3874, 2.1686, null);
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "jump-reprocess-test")) {
            publisher.publish(madrid, PayloadFormat.AVRO);
            publisher.publish(carried, PayloadFormat.AVRO);
            publisher.awaitAcknowledgements();
        }
        String rows = "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id = ?";
        String rejections = "SELECT count(*) FROM " + Tables.qualified(Tables.REJECTED_POSITIONS)
                + " WHERE vehicle_id = ? AND reason = '" + RejectionReason.IMPLAUSIBLE_JUMP + "'";
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(trino.query(rows, vehicle).get(0).get(0)).isEqualTo("1");
            assertThat(trino.query(rejections, vehicle).get(0).get(0)).isEqualTo("1");
        });

        DeadLetterReprocessor reprocessor =
                new DeadLetterReprocessor(running.settings().kafkaBootstrapServers(), running.validationRules());
        Selection selection = new Selection(Set.of(RejectionReason.IMPLAUSIBLE_JUMP), Optional.of(testStart));
        Outcome first = reprocessor.reprocess(selection, false);
        assertThat(first.republished()).isEqualTo(1);
        String carriedRow = "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS)
                + " WHERE vehicle_id = ? AND latitude = 41.3874";
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(
                        trino.query(carriedRow, vehicle).get(0).get(0))
                .as("the reprocessed jump is accepted, not dropped as a resend")
                .isEqualTo("1"));

        Outcome second = reprocessor.reprocess(selection, false);
        assertThat(second.republished()).isZero();
        long afterSecondRun = latestSnapshotId(trino);
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> latestSnapshotId(trino) != afterSecondRun);
        assertThat(trino.query(rows, vehicle).get(0).get(0)).as("each fix once").isEqualTo("2");
        assertThat(trino.query(rejections, vehicle).get(0).get(0))
                .as("the republished fix was not rejected again")
                .isEqualTo("1");
    }

    private static byte[] publish(
            TestPublisher publisher,
            PositionCodec codec,
            Position position,
            Map<RejectionReason, Integer> expectedRejections,
            RejectionReason reason)
            throws InterruptedException {
        byte[] payload = codec.encodeAvro(position);
        publisher.publishRaw(topic(position), payload);
        expectedRejections.merge(reason, 1, Integer::sum);
        return payload;
    }

    private static void assertDeadLettersKeepOriginalBytes(RunningStack running, List<byte[]> payloads) {
        KafkaInspector kafka = new KafkaInspector(running.settings().kafkaBootstrapServers());
        List<String> deadLetters = new ArrayList<>();
        kafka.forEachRecord(Topics.DLQ_POSITIONS, record -> {
            if (record.key() != null && new String(record.key(), StandardCharsets.UTF_8).startsWith(PREFIX)) {
                deadLetters.add(hex(record.value()));
            }
        });
        assertThat(deadLetters)
                .containsExactlyInAnyOrderElementsOf(
                        payloads.stream().map(ValidationAndReprocessIT::hex).toList());
    }

    private static long count(TrinoInspector trino, String table, String timeTravel) throws Exception {
        return Long.parseLong(trino.query(
                        "SELECT count(*) FROM " + Tables.qualified(table) + timeTravel + " WHERE vehicle_id LIKE ?",
                        PREFIX + "%")
                .get(0)
                .get(0));
    }

    private static long distinctIdentities(TrinoInspector trino) throws Exception {
        return Long.parseLong(trino.query(
                        "SELECT count(*) FROM (SELECT DISTINCT vehicle_id, event_time FROM "
                                + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?)",
                        PREFIX + "%")
                .get(0)
                .get(0));
    }

    private static Map<String, String> rejectionsByReason(TrinoInspector trino) throws Exception {
        Map<String, String> counts = new TreeMap<>();
        for (List<String> row : trino.query(
                "SELECT reason, count(*) FROM " + Tables.qualified(Tables.REJECTED_POSITIONS)
                        + " WHERE vehicle_id LIKE ? GROUP BY reason",
                PREFIX + "%")) {
            counts.put(row.get(0), row.get(1));
        }
        return counts;
    }

    private static Map<String, String> asStrings(Map<RejectionReason, Integer> counts) {
        Map<String, String> strings = new TreeMap<>();
        counts.forEach((reason, count) -> strings.put(reason.name(), Integer.toString(count)));
        return strings;
    }

    private static long latestSnapshotId(TrinoInspector trino) throws Exception {
        List<TrinoInspector.Snapshot> snapshots = trino.snapshots(Tables.POSITIONS);
        return snapshots.get(snapshots.size() - 1).snapshotId();
    }

    private static Position position(String vehicle, Instant time, double latitude, double longitude, Double battery) {
        return new Position(vehicle, time, latitude, longitude, 48.0, 120.0, null, null, null, battery);
    }

    private static String topic(Position position) {
        return MqttTopics.positionTopic(position.vehicleId());
    }

    private static void writeRules(RunningStack running, String rules) throws IOException {
        Files.writeString(running.rulesFile(), rules);
    }

    private static Path resource(String name) {
        return Path.of("src/test/resources/validation-it", name).toAbsolutePath();
    }

    private static Schema schema(String name) throws IOException {
        try (InputStream in = Files.newInputStream(resource(name))) {
            return new Schema.Parser().parse(in);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
