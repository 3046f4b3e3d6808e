package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AuditResultTablesTest {
    private static final TrackPoint FIX = new TrackPoint(
            Instant.parse("2026-11-24T14:01:55Z"),
            40.41,
            -3.7,
            31.0,
            90.0,
            Optional.of("ON_ROUTE"),
            Optional.of("route-7"),
            Optional.empty(),
            Optional.of("Sol"),
            Optional.of("Madrid"),
            Instant.parse("2026-11-24T14:01:56Z"),
            1,
            1234);

    @Test
    void whereAtPrintsTheFixAgeInSeconds() {
        WhereAt answer = new WhereAt(
                "bus-0042",
                Instant.parse("2026-11-24T14:02:00Z"),
                AsOf.instant(Instant.parse("2026-11-24T14:05:00Z")),
                Duration.ofDays(7),
                Optional.of(FIX));

        ResultTable table = AuditResultTables.whereAt(answer);

        assertThat(table.columns()).startsWith("vehicle_id", "at", "known_at", "fix_age_seconds", "event_time");
        assertThat(table.rows())
                .containsExactly(Arrays.asList(
                        "bus-0042",
                        Instant.parse("2026-11-24T14:02:00Z"),
                        Instant.parse("2026-11-24T14:05:00Z"),
                        5.0,
                        FIX.eventTime(),
                        40.41,
                        -3.7,
                        31.0,
                        90.0,
                        "ON_ROUTE",
                        "route-7",
                        null,
                        "Sol",
                        "Madrid",
                        FIX.ingestTime(),
                        1,
                        1234L));
    }

    @Test
    void whereAtWithoutFixHasNoRows() {
        WhereAt answer = new WhereAt(
                "bus-0042",
                Instant.parse("2026-11-24T14:02:00Z"),
                AsOf.current(),
                Duration.ofDays(7),
                Optional.empty());

        assertThat(AuditResultTables.whereAt(answer).rows()).isEmpty();
        assertThat(answer.fixAge()).isEmpty();
    }

    @Test
    void lateArrivalColumnsOnlyForPositions() {
        SnapshotAddition snapshot = new SnapshotAddition(
                7,
                OptionalLong.empty(),
                Instant.parse("2026-11-28T10:00:00Z"),
                "append",
                100,
                0,
                100,
                OptionalLong.of(100),
                OptionalLong.of(12),
                Optional.of(Instant.parse("2026-11-25T00:00:00Z")));

        assertThat(AuditResultTables.snapshots(AuditTable.POSITIONS, List.of(snapshot))
                        .columns())
                .endsWith("live_records", "late_records", "oldest_event_time");
        assertThat(AuditResultTables.snapshots(AuditTable.POSITIONS, List.of(snapshot))
                        .rows()
                        .get(0))
                .containsExactly(
                        7L,
                        null,
                        snapshot.committedAt(),
                        "append",
                        100L,
                        0L,
                        100L,
                        100L,
                        12L,
                        Instant.parse("2026-11-25T00:00:00Z"));
        assertThat(AuditResultTables.snapshots(AuditTable.VEHICLE_MINUTES, List.of(snapshot))
                        .columns())
                .doesNotContain("late_records");
    }

    @Test
    void rejectionsNameTheCategory() {
        ResultTable table = AuditResultTables.rejections(List.of(
                new RejectionCount(
                        Instant.parse("2026-11-28T10:00:00Z"),
                        "SPEED_TOO_HIGH",
                        Optional.of(RejectionReason.Category.RULE),
                        3,
                        2),
                new RejectionCount(Instant.parse("2026-11-28T10:00:00Z"), "FROM_THE_FUTURE", Optional.empty(), 1, 1)));

        assertThat(table.rows().get(0))
                .containsExactly(Instant.parse("2026-11-28T10:00:00Z"), "SPEED_TOO_HIGH", "RULE", 3L, 2L);
        assertThat(table.rows().get(1).get(2)).isNull();
    }

    @Test
    void retentionsArePrintedAsTheOptionsTakeThem() {
        assertThat(AuditResultTables.age(Duration.ofDays(400))).isEqualTo("400d");
        assertThat(AuditResultTables.age(Duration.ofHours(36))).isEqualTo("36h");
        assertThat(AuditResultTables.age(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(AuditResultTables.age(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(AuditResultTables.age(Duration.ofMillis(1500))).isEqualTo("PT1.5S");
    }
}
