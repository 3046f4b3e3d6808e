package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.backfill.AffectedWindow;
import io.fleetlake.operations.backfill.VehicleMinutesBackfill;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A vehicle comes out of an underground garage and flushes nine minutes of buffered fixes at once. Every fix lands in
 * the history exactly once; the windows still open (within the allowed lateness) are updated by the pipeline, the
 * older ones are named on the late-positions topic, and the backfill recomputes them, after which every window of the
 * vehicle holds the right numbers; a second backfill changes nothing.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class GarageBurstIT {
    private static final String GARAGE = "GAR-01";
    private static final String PACER = "GAR-02";
    private static final double STOP_SPEED_KMH = 3.0;
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    @Test
    void garageBurstLandsOnceAndBackfillMakesEveryWindowRight(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        // Twelve minutes back: the pacer can then move event time (and the watermark) ten and a half minutes forward
        // without any fix being in the future.
        Instant base = Instant.now().minus(12, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES);
        List<Position> garage = new ArrayList<>();
        for (int second = 0; second < 600; second++) {
            boolean parked = second >= 300 && second < 330;
            double longitude = -0.95 + Math.min(second, 300) * 0.0001 + Math.max(0, second - 330) * 0.0001;
            garage.add(new Position(
                    GARAGE,
                    base.plusSeconds(second),
                    41.70,
                    longitude,
                    parked ? 0.0 : 30.0,
                    90.0,
                    null,
                    null,
                    null,
                    null));
        }

        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "garage-test")) {
            for (Position position : garage.subList(0, 60)) {
                publisher.publish(position, PayloadFormat.AVRO);
            }
            for (int second = 0; second <= 660; second += 10) {
                publisher.publish(
                        Position.of(PACER, base.plusSeconds(second), 41.72, -0.95 + second * 0.00002, 5.0, 90.0),
                        PayloadFormat.AVRO);
            }
            publisher.awaitAcknowledgements();
            // The pacer's window of minute 9 closes once the watermark passes base + 10 min.
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).until(() -> !trino.query(
                            "SELECT 1 FROM " + Tables.qualified(Tables.VEHICLE_MINUTES)
                                    + " WHERE vehicle_id = ? AND window_start = from_iso8601_timestamp(?)",
                            PACER,
                            base.plus(9, ChronoUnit.MINUTES).toString())
                    .isEmpty());

            for (Position position : garage.subList(60, garage.size())) {
                publisher.publish(position, PayloadFormat.AVRO);
            }
            publisher.awaitAcknowledgements();
        }

        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(trino.query(
                        "SELECT count(*), count(DISTINCT event_time) FROM " + Tables.qualified(Tables.POSITIONS)
                                + " WHERE vehicle_id = ?",
                        GARAGE))
                .containsExactly(List.of("600", "600")));

        // Minutes 1 to 4 ended more than the allowed lateness before the watermark: their fixes are late.
        AtomicLong late = new AtomicLong();
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            late.set(0);
            new KafkaInspector(running.settings().kafkaBootstrapServers())
                    .forEachRecord(Topics.LATE_POSITIONS, record -> {
                        if (record.key() != null && GARAGE.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                            late.incrementAndGet();
                        }
                    });
            assertThat(late.get()).isEqualTo(240);
        });

        SortedSet<AffectedWindow> affected = VehicleMinutesBackfill.windowsOfLatePositions(
                running.settings().kafkaBootstrapServers(), Optional.of(base));
        assertThat(affected.stream().filter(window -> window.vehicleId().equals(GARAGE)))
                .extracting(AffectedWindow::windowStart)
                .containsExactly(
                        base.plus(1, ChronoUnit.MINUTES),
                        base.plus(2, ChronoUnit.MINUTES),
                        base.plus(3, ChronoUnit.MINUTES),
                        base.plus(4, ChronoUnit.MINUTES));
        VehicleMinutesBackfill backfill =
                new VehicleMinutesBackfill(running.settings().trino(TrinoUser.ADMIN), STOP_SPEED_KMH);
        assertThat(backfill.recompute(affected)).isGreaterThanOrEqualTo(4);

        Map<Instant, Minute> expected = expectedMinutes(garage);
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            Map<Instant, Minute> actual = actualMinutes(trino);
            assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
            expected.forEach((windowStart, minute) -> {
                Minute row = actual.get(windowStart);
                assertThat(row.positions()).as("positions of %s", windowStart).isEqualTo(minute.positions());
                assertThat(row.distanceM())
                        .as("distance of %s", windowStart)
                        .isCloseTo(minute.distanceM(), within(0.01));
                assertThat(row.avgSpeedKmh())
                        .as("average speed of %s", windowStart)
                        .isCloseTo(minute.avgSpeedKmh(), within(1e-9));
                assertThat(row.maxSpeedKmh()).isEqualTo(minute.maxSpeedKmh());
                assertThat(row.secondsStopped())
                        .as("seconds stopped in %s", windowStart)
                        .isCloseTo(minute.secondsStopped(), within(1e-6));
            });
        });

        assertThat(backfill.recompute(affected))
                .as("a second backfill changes nothing")
                .isZero();
    }

    private static Map<Instant, Minute> actualMinutes(TrinoInspector trino) throws Exception {
        Map<Instant, Minute> minutes = new TreeMap<>();
        for (List<String> row : trino.query(
                "SELECT to_iso8601(window_start), positions, distance_m, avg_speed_kmh, max_speed_kmh, seconds_stopped"
                        + " FROM " + Tables.qualified(Tables.VEHICLE_MINUTES) + " WHERE vehicle_id = ?",
                GARAGE)) {
            minutes.put(
                    Instant.parse(row.get(0)),
                    new Minute(
                            Integer.parseInt(row.get(1)),
                            Double.parseDouble(row.get(2)),
                            Double.parseDouble(row.get(3)),
                            Double.parseDouble(row.get(4)),
                            Double.parseDouble(row.get(5))));
        }
        return minutes;
    }

    /** The window numbers computed independently from what was published. */
    private static Map<Instant, Minute> expectedMinutes(List<Position> positions) {
        Map<Instant, List<Position>> byMinute = new TreeMap<>();
        positions.forEach(position -> byMinute.computeIfAbsent(
                        position.eventTime().truncatedTo(ChronoUnit.MINUTES), minute -> new ArrayList<>())
                .add(position));
        Map<Instant, Minute> minutes = new TreeMap<>();
        byMinute.forEach((start, fixes) -> {
            double distance = 0;
            double stopped = 0;
            for (int i = 1; i < fixes.size(); i++) {
                Position previous = fixes.get(i - 1);
                Position current = fixes.get(i);
                distance += haversineMetres(previous, current);
                if (previous.speedKmh() < STOP_SPEED_KMH && current.speedKmh() < STOP_SPEED_KMH) {
                    stopped += Duration.between(previous.eventTime(), current.eventTime())
                                    .toMillis()
                            / 1000.0;
                }
            }
            minutes.put(
                    start,
                    new Minute(
                            fixes.size(),
                            distance,
                            fixes.stream()
                                    .mapToDouble(Position::speedKmh)
                                    .average()
                                    .orElseThrow(),
                            fixes.stream().mapToDouble(Position::speedKmh).max().orElseThrow(),
                            stopped));
        });
        return minutes;
    }

    private static double haversineMetres(Position from, Position to) {
        return GreatCircle.distanceMetres(from.latitude(), from.longitude(), to.latitude(), to.longitude());
    }

    private record Minute(
            int positions, double distanceM, double avgSpeedKmh, double maxSpeedKmh, double secondsStopped) {}
}
