package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AuditErrorsTest {
    private static final String URL = "jdbc:trino://127.0.0.1:18080/iceberg";
    private static final AsOf AT_INSTANT = AsOf.instant(Instant.parse("2026-11-28T14:05:00Z"));

    @Test
    void expiredSnapshotSuggestsATagOrAnInstant() {
        AuditException exception = map(RecordedTrinoErrors.expiredSnapshot(), AsOf.snapshot(123));

        assertThat(exception.error()).isEqualTo(AuditError.SNAPSHOT_NOT_FOUND);
        assertThat(exception.exitCode()).isEqualTo(2);
        assertThat(exception.getMessage())
                .isEqualTo("Snapshot 123 does not exist in fleet.positions (expired?); use a tag (fleet audit tags) or"
                        + " an instant");
    }

    @Test
    void unknownTagPointsToTheTagList() {
        AuditException exception = map(RecordedTrinoErrors.unknownTag(), AsOf.tag("audit-x"));

        assertThat(exception.error()).isEqualTo(AuditError.TAG_NOT_FOUND);
        assertThat(exception.getMessage())
                .isEqualTo("Tag audit-x does not exist in fleet.positions; list the tags with fleet audit tags, or use"
                        + " a snapshot id or an instant");
    }

    @Test
    void instantBeforeTheFirstSnapshot() {
        AuditException exception = AuditErrors.from(
                TrinoFailure.classify(RecordedTrinoErrors.beforeHistory()),
                URL,
                AuditTable.POSITIONS,
                AT_INSTANT,
                () -> Optional.of(new AuditErrors.OldestSnapshot(Instant.parse("2026-11-28T16:00:00.250Z"), true)));

        assertThat(exception.error()).isEqualTo(AuditError.BEFORE_FIRST_SNAPSHOT);
        assertThat(exception.exitCode()).isEqualTo(2);
        assertThat(exception.getMessage())
                .isEqualTo("fleet.positions did not exist yet at 2026-11-28T14:05:00.000Z: its first snapshot was"
                        + " committed at 2026-11-28T16:00:00.250Z");
    }

    @Test
    void instantBeforeTheKeptHistorySaysOlderSnapshotsExpired() {
        AuditException exception = AuditErrors.from(
                TrinoFailure.classify(RecordedTrinoErrors.beforeHistory()),
                URL,
                AuditTable.POSITIONS,
                AT_INSTANT,
                () -> Optional.of(new AuditErrors.OldestSnapshot(Instant.parse("2026-11-29T00:00:00Z"), false)));

        assertThat(exception.getMessage())
                .isEqualTo("fleet.positions has no history at or before 2026-11-28T14:05:00.000Z: its snapshots before"
                        + " 2026-11-29T00:00:00.000Z expired; use a tag (fleet audit tags) or a later instant");
    }

    @Test
    void instantOnATableWithoutSnapshots() {
        AuditException exception = AuditErrors.from(
                TrinoFailure.classify(RecordedTrinoErrors.beforeHistory()),
                URL,
                AuditTable.POSITIONS,
                AT_INSTANT,
                Optional::empty);

        assertThat(exception.getMessage())
                .isEqualTo("fleet.positions has no snapshot at or before 2026-11-28T14:05:00.000Z: it has no snapshot"
                        + " yet");
    }

    @Test
    void theOldestSnapshotIsOnlyLookedUpForAnInstantBeforeIt() {
        AuditErrors.from(
                TrinoFailure.classify(RecordedTrinoErrors.expiredSnapshot()),
                URL,
                AuditTable.POSITIONS,
                AsOf.snapshot(123),
                () -> {
                    throw new AssertionError("looked up the oldest snapshot");
                });
    }

    @Test
    void trinoUnreachableNamesTheUrlAndTheStack() {
        AuditException exception = map(RecordedTrinoErrors.connectionRefused(), AsOf.current());

        assertThat(exception.error()).isEqualTo(AuditError.TRINO_UNREACHABLE);
        assertThat(exception.exitCode()).isEqualTo(1);
        assertThat(exception.getMessage())
                .isEqualTo("Cannot reach Trino at jdbc:trino://127.0.0.1:18080/iceberg (ConnectException: Failed to"
                        + " connect to /127.0.0.1:28999): the stack must be running (fleet up, or fleet demo"
                        + " --keep-running), or pass --trino-url");
    }

    @Test
    void trinoStartingIsASystemErrorToRetry() {
        AuditException exception = map(RecordedTrinoErrors.starting(), AsOf.current());

        assertThat(exception.error()).isEqualTo(AuditError.TRINO_STARTING);
        assertThat(exception.exitCode()).isEqualTo(1);
        assertThat(exception.getMessage()).contains("is still starting: try again");
    }

    @Test
    void catalogDownIsASystemError() {
        AuditException exception = map(RecordedTrinoErrors.catalogDown(), AsOf.current());

        assertThat(exception.error()).isEqualTo(AuditError.CATALOG_UNREACHABLE);
        assertThat(exception.exitCode()).isEqualTo(1);
        assertThat(exception.getMessage())
                .isEqualTo("Trino at jdbc:trino://127.0.0.1:18080/iceberg cannot load fleet.positions from the Iceberg"
                        + " REST catalog (Connect to http://127.0.0.1:28981 failed: Connection refused): the stack must"
                        + " be running (fleet up)");
    }

    @Test
    void missingTableIsASystemError() {
        AuditException exception = map(RecordedTrinoErrors.tableMissing(), AsOf.current());

        assertThat(exception.error()).isEqualTo(AuditError.TABLE_NOT_FOUND);
        assertThat(exception.exitCode()).isEqualTo(1);
        assertThat(exception.getMessage()).startsWith("iceberg.fleet.nope does not exist in Trino at");
    }

    @Test
    void otherFailuresCarryTrinosMessage() {
        AuditException exception = map(RecordedTrinoErrors.integerVersion(), AsOf.current());

        assertThat(exception.error()).isEqualTo(AuditError.QUERY_FAILED);
        assertThat(exception.getMessage())
                .isEqualTo("Trino at jdbc:trino://127.0.0.1:18080/iceberg failed the audit query: Unsupported type for"
                        + " table version: integer");
    }

    @Test
    void everyUserErrorExitsWithTwoAndEveryOtherWithOne() {
        for (AuditError error : AuditError.values()) {
            assertThat(error.exitCode())
                    .as(error.name())
                    .isEqualTo(error.category() == AuditError.Category.USER ? 2 : 1);
        }
    }

    private static AuditException map(SQLException exception, AsOf asOf) {
        return AuditErrors.from(TrinoFailure.classify(exception), URL, AuditTable.POSITIONS, asOf, Optional::empty);
    }
}
