package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.trino.audit.AsOf;
import io.fleetlake.trino.audit.AuditConfig;
import io.fleetlake.trino.audit.AuditError;
import io.fleetlake.trino.audit.AuditException;
import io.fleetlake.trino.audit.AuditQueries;
import io.fleetlake.trino.audit.AuditTable;
import io.fleetlake.trino.audit.SnapshotAddition;
import io.fleetlake.trino.audit.TagResult;
import io.fleetlake.trino.audit.WhereAt;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Audits against a history built with known snapshots: what each snapshot added (late arrivals and a backfill made
 * visible), a vehicle's track as of a snapshot and now, where it was at an instant as known at another, the daily tag,
 * and that the tag keeps the audit reproducible after old snapshots expire.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class AuditIT {
    private static final String VEHICLE = "AUD-01";
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final Duration LATE = Duration.ofMinutes(5);

    @Test
    void auditsFollowTheSnapshotsAndTagsSurviveExpiry(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        AuditConfig config = AuditConfig.from(ConfigSource.of(Map.of(
                AuditConfig.TRINO_JDBC_URL, running.settings().trinoJdbcUrl(),
                AuditConfig.DATA_DIRECTORY, running.settings().dataDirectory().toString(),
                AuditConfig.CATALOG_URI, running.settings().catalogUri(),
                AuditConfig.CATALOG_CREDENTIAL,
                        StackCatalogIdentity.of(running.settings())
                                .credential(CatalogRole.WRITER)
                                .value())));
        AuditQueries audit = new AuditQueries(config);
        Instant testStart = Instant.now();
        Instant old = testStart.minus(40, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Instant recent = testStart.minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Instant backfill = testStart.minus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);

        List<Position> late = fixes(old, 10);
        List<Position> current = fixes(recent, 10);
        List<Position> backfilled = fixes(backfill, 5);
        long beforeLate = latestSnapshot(trino);
        publishAndAwait(running, trino, late, 10);
        long afterLate = latestSnapshot(trino);
        Instant knownAfterLate = Instant.now();
        publishAndAwait(running, trino, current, 20);
        long afterCurrent = latestSnapshot(trino);
        publishAndAwait(running, trino, backfilled, 25);
        long afterBackfill = latestSnapshot(trino);

        List<SnapshotAddition> additions = audit.snapshotAdditions(AuditTable.POSITIONS, testStart, LATE);
        assertThat(sum(additions, between(trino, beforeLate, afterLate), SnapshotAddition::liveRecords))
                .isEqualTo(10);
        assertThat(sum(additions, between(trino, beforeLate, afterLate), SnapshotAddition::lateRecords))
                .as("positions forty minutes old are late arrivals")
                .isEqualTo(10);
        assertThat(sum(additions, between(trino, afterLate, afterCurrent), SnapshotAddition::liveRecords))
                .isEqualTo(10);
        assertThat(sum(additions, between(trino, afterLate, afterCurrent), SnapshotAddition::lateRecords))
                .isZero();
        List<SnapshotAddition> backfillSnapshots = additions.stream()
                .filter(between(trino, afterCurrent, afterBackfill))
                .toList();
        assertThat(backfillSnapshots.stream()
                        .mapToLong(addition -> addition.lateRecords().orElse(0))
                        .sum())
                .isEqualTo(5);
        assertThat(backfillSnapshots.stream()
                        .flatMap(addition -> addition.oldestEventTime().stream())
                        .min(Instant::compareTo))
                .contains(backfill);

        Instant from = backfill.minus(1, ChronoUnit.HOURS);
        Instant to = testStart.plus(1, ChronoUnit.HOURS);
        assertThat(audit.track(VEHICLE, from, to, AsOf.snapshot(afterLate))).hasSize(10);
        assertThat(audit.track(VEHICLE, from, to, AsOf.current())).hasSize(25);

        Instant at = old.plusSeconds(32);
        WhereAt where = audit.whereAt(VEHICLE, at, AsOf.instant(knownAfterLate));
        assertThat(where.fix())
                .hasValueSatisfying(fix -> assertThat(fix.eventTime()).isEqualTo(old.plusSeconds(30)));
        assertThat(where.fixAge()).contains(Duration.ofSeconds(2));

        assertThatThrownBy(() -> audit.track("AUD-NOBODY", from, to, AsOf.current()))
                .isInstanceOfSatisfying(
                        AuditException.class, e -> assertThat(e.error()).isEqualTo(AuditError.UNKNOWN_VEHICLE));

        // The pipeline commits an empty snapshot every few checkpoints; stopped, it cannot move the newest snapshot
        // between two tag calls.
        running.stack().stop(FleetStack.PIPELINE);
        try {
            tagAndExpire(running, trino, config, audit, afterLate, from, to);
        } finally {
            running.stack().start(FleetStack.PIPELINE);
        }
    }

    private static void tagAndExpire(
            RunningStack running,
            TrinoInspector trino,
            AuditConfig config,
            AuditQueries audit,
            long afterLate,
            Instant from,
            Instant to)
            throws Exception {
        // A day is tagged once it is over: audit as if it were tomorrow.
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Clock tomorrow = Clock.fixed(today.plusDays(1).atTime(6, 0).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
        AuditQueries nextMorning = new AuditQueries(config, tomorrow);
        TagResult tagged = nextMorning.tag(AuditTable.POSITIONS, today, Duration.ofDays(400));
        assertThat(tagged.action()).isEqualTo(TagResult.Action.CREATED);
        assertThat(tagged.tag().snapshotId()).isEqualTo(latestSnapshot(trino));
        assertThat(nextMorning
                        .tag(AuditTable.POSITIONS, today, Duration.ofDays(400))
                        .action())
                .isEqualTo(TagResult.Action.UNCHANGED);
        String tag = tagged.tag().name();
        assertThat(nextMorning.tags(AuditTable.POSITIONS)).anySatisfy(info -> {
            assertThat(info.name()).isEqualTo(tag);
            assertThat(info.maxRefAge()).contains(Duration.ofDays(400));
        });

        // Old snapshots expire; the tag keeps the day's audit reproducible.
        expireAllButCurrentSnapshot(running);
        assertThat(audit.track(VEHICLE, from, to, AsOf.tag(tag))).hasSize(25);
        assertThatThrownBy(() -> audit.track(VEHICLE, from, to, AsOf.snapshot(afterLate)))
                .isInstanceOfSatisfying(
                        AuditException.class, e -> assertThat(e.error()).isEqualTo(AuditError.SNAPSHOT_NOT_FOUND));
        assertThatThrownBy(() -> audit.track(VEHICLE, from, to, AsOf.instant(Instant.parse("2001-01-01T00:00:00Z"))))
                .isInstanceOfSatisfying(
                        AuditException.class, e -> assertThat(e.error()).isEqualTo(AuditError.BEFORE_FIRST_SNAPSHOT));
    }

    private static void publishAndAwait(
            RunningStack running, TrinoInspector trino, List<Position> positions, long expectedTotal) throws Exception {
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "audit-test")) {
            for (Position position : positions) {
                publisher.publish(position, PayloadFormat.AVRO);
            }
            publisher.awaitAcknowledgements();
        }
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> Long.parseLong(trino.query(
                                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS)
                                                + " WHERE vehicle_id = ?",
                                        VEHICLE)
                                .get(0)
                                .get(0))
                        == expectedTotal);
    }

    private static List<Position> fixes(Instant start, int count) {
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < count; fix++) {
            positions.add(
                    Position.of(VEHICLE, start.plusSeconds(5L * fix), 39.4699 + fix * 0.0003, -0.3763, 40.0, 0.0));
        }
        return positions;
    }

    private static long latestSnapshot(TrinoInspector trino) throws Exception {
        List<TrinoInspector.Snapshot> snapshots = trino.snapshots(Tables.POSITIONS);
        return snapshots.get(snapshots.size() - 1).snapshotId();
    }

    /** Snapshots committed after the first snapshot and up to and including the second. */
    private static Predicate<SnapshotAddition> between(TrinoInspector trino, long after, long upToIncluding)
            throws Exception {
        Map<Long, Instant> committed = new HashMap<>();
        trino.snapshots(Tables.POSITIONS)
                .forEach(snapshot -> committed.put(snapshot.snapshotId(), snapshot.committedAt()));
        Instant start = committed.get(after);
        Instant end = committed.get(upToIncluding);
        return addition ->
                addition.committedAt().isAfter(start) && !addition.committedAt().isAfter(end);
    }

    private static long sum(
            List<SnapshotAddition> additions,
            Predicate<SnapshotAddition> which,
            Function<SnapshotAddition, OptionalLong> value) {
        return additions.stream()
                .filter(which)
                .mapToLong(addition -> value.apply(addition).orElse(0))
                .sum();
    }

    private static void expireAllButCurrentSnapshot(RunningStack running) throws Exception {
        // Maintenance through Trino: admin, on the iceberg_admin catalog (its session property is that catalog's).
        try (Connection connection = running.settings()
                        .trino(TrinoUser.ADMIN)
                        .connect(Map.of("sessionProperties", "iceberg_admin.expire_snapshots_min_retention:0s"));
                Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE " + Tables.qualified(Tables.POSITIONS)
                    + " EXECUTE expire_snapshots(retention_threshold => '0s')");
        }
    }
}
