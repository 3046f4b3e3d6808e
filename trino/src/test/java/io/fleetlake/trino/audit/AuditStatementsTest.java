package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.codec.PositionField;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AuditStatementsTest {
    private static final Instant FROM = Instant.parse("2026-11-28T14:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-28T15:00:00Z");

    static List<String> sqlFiles() {
        return AuditStatements.ALL;
    }

    @ParameterizedTest
    @MethodSource("sqlFiles")
    void everySqlFileIsOnTheClasspathAndNamesOnlyFleetTablesOfTheIcebergCatalog(String name) {
        String text = SqlTemplate.load(name).text();

        assertThat(text).contains("FROM iceberg.fleet.");
        assertThat(withoutComments(text)).doesNotContain(";");
    }

    @Test
    void trackReadsTheTableNowWithThreeParameters() {
        AuditStatement statement = AuditStatements.track("bus-0042", FROM, TO, AsOf.current());

        assertThat(statement.name()).isEqualTo("track");
        assertThat(statement.sql())
                .startsWith("-- Audit question 1")
                .contains("SELECT p.*, pl.place_name, pl.province")
                .contains("LEFT JOIN iceberg.fleet.position_places pl")
                .contains("FROM iceberg.fleet.positions\n  WHERE vehicle_id = ?")
                .contains("event_time >= from_iso8601_timestamp(?)")
                .contains("event_time < from_iso8601_timestamp(?)")
                .doesNotContain("{as_of}");
        assertThat(withoutComments(statement.sql())).doesNotContain("FOR ");
        assertThat(statement.parameters())
                .containsExactly("bus-0042", "2026-11-28T14:00:00.000Z", "2026-11-28T15:00:00.000Z");
    }

    @Test
    void trackPutsTheTimeTravelClauseAfterTheTableName() {
        assertThat(AuditStatements.track("bus-0042", FROM, TO, AsOf.snapshot(42))
                        .sql())
                .contains("FROM iceberg.fleet.positions FOR VERSION AS OF BIGINT '42'\n  WHERE vehicle_id = ?");
        assertThat(AuditStatements.track("bus-0042", FROM, TO, AsOf.tag("audit-2026-11-28"))
                        .sql())
                .contains("FROM iceberg.fleet.positions FOR VERSION AS OF 'audit-2026-11-28'\n  WHERE");
        AuditStatement asOfInstant =
                AuditStatements.track("bus-0042", FROM, TO, AsOf.instant(Instant.parse("2026-11-28T14:05:00Z")));
        assertThat(asOfInstant.sql())
                .contains("FROM iceberg.fleet.positions FOR TIMESTAMP AS OF TIMESTAMP '2026-11-28 14:05:00.000 UTC'\n");
        // The clause is a literal: the parameters stay the same three.
        assertThat(asOfInstant.parameters()).hasSize(3);
    }

    @Test
    void whereAtLooksBackFromTheInstant() {
        Instant at = Instant.parse("2026-11-24T14:02:00Z");
        AuditStatement statement = AuditStatements.whereAt(
                "bus-0042", at, Duration.ofDays(1), AsOf.instant(Instant.parse("2026-11-24T14:05:00Z")));

        assertThat(statement.sql())
                .contains("FOR TIMESTAMP AS OF TIMESTAMP '2026-11-24 14:05:00.000 UTC'")
                .contains("event_time > from_iso8601_timestamp(?)")
                .contains("event_time <= from_iso8601_timestamp(?)")
                .contains("ORDER BY event_time DESC, ingest_time DESC\n  LIMIT 1\n) p")
                // The fix's place, from the places as they are now (no time travel on them).
                .endsWith("LEFT JOIN iceberg.fleet.position_places pl\n"
                        + "  ON pl.vehicle_id = p.vehicle_id AND pl.event_time = p.event_time");
        assertThat(statement.parameters())
                .containsExactly("bus-0042", "2026-11-23T14:02:00.000Z", "2026-11-24T14:02:00.000Z");
    }

    @Test
    void snapshotsNameTheMetadataTableOfTheChosenTable() {
        AuditStatement statement = AuditStatements.snapshots(AuditTable.REJECTED_POSITIONS, FROM);

        assertThat(statement.sql())
                .contains("FROM iceberg.fleet.\"rejected_positions$snapshots\"")
                .contains("element_at(summary, 'added-records')");
        assertThat(statement.parameters()).containsExactly("2026-11-28T14:00:00.000Z");
    }

    @Test
    void lateArrivalsBindTheThresholdInMilliseconds() {
        AuditStatement statement = AuditStatements.lateArrivals(FROM, Duration.ofMinutes(5));

        assertThat(statement.sql())
                .contains("\"positions$entries\"")
                .contains("p.\"$path\"")
                .contains("date_diff('millisecond', p.event_time, s.committed_at) > ?");
        assertThat(statement.parameters()).containsExactly("2026-11-28T14:00:00.000Z", 300_000L);
    }

    @Test
    void rejectionsBindTheBucketUnitFirst() {
        AuditStatement statement = AuditStatements.rejectionsByReason(FROM, TO, RejectionBucket.DAY);

        assertThat(statement.sql())
                .contains("date_trunc(?, rejected_at)")
                .contains("FROM iceberg.fleet.rejected_positions");
        assertThat(statement.parameters())
                .containsExactly("day", "2026-11-28T14:00:00.000Z", "2026-11-28T15:00:00.000Z");
    }

    @Test
    void vehicleSuggestionsUseAnEscapedPrefix() {
        assertThat(AuditStatements.likePrefix("bus-42")).isEqualTo("bus-%");
        assertThat(AuditStatements.likePrefix("42-bus")).isEqualTo("42%");
        assertThat(AuditStatements.likePrefix("van_7")).isEqualTo("van\\_%");
        assertThat(AuditStatements.likePrefix("x%")).isEqualTo("x\\%%");
        assertThat(AuditStatements.vehicleSuggestions("bus-42").parameters())
                .containsExactly("bus-%", "bus-42", "bus-42");
    }

    @Test
    void oldestSnapshotFollowsTheCurrentHistory() {
        assertThat(AuditStatements.oldestSnapshot(AuditTable.POSITIONS).sql())
                .contains("FROM iceberg.fleet.\"positions$history\"")
                .contains("WHERE is_current_ancestor");
    }

    @Test
    void columnsTheReadersUseAreTheModelsColumnsAndAreInTheirSql() {
        // track.sql and where-at.sql select * (see the file); the reader takes these model columns by name.
        assertThat(AuditResultTables.FIX_COLUMNS)
                .contains(
                        PositionField.EVENT_TIME.fieldName(),
                        EnrichmentColumns.STATUS,
                        LineageColumns.SOURCE_OFFSET,
                        LineageColumns.INGEST_TIME);
        assertThat(AuditStatements.track("v", FROM, TO, AsOf.current()).sql())
                .contains(PositionField.VEHICLE_ID.fieldName() + " = ?")
                .contains(PositionField.EVENT_TIME.fieldName() + " >= ")
                .contains("ORDER BY " + PositionField.EVENT_TIME.fieldName() + ", " + LineageColumns.INGEST_TIME);
        assertThat(AuditStatements.rejectionsByReason(FROM, TO, RejectionBucket.HOUR)
                        .sql())
                .contains(RejectedColumns.REASON + ",")
                .contains("count(DISTINCT " + RejectedColumns.VEHICLE_ID + ") AS vehicles")
                .contains(RejectedColumns.REJECTED_AT + " >= ");
        assertThat(AuditStatements.vehicleExists("v").sql())
                .contains("count(*) AS " + AuditQueries.VEHICLE_EXISTS_COUNT)
                .contains(PositionField.VEHICLE_ID.fieldName() + " = ?");
        assertThat(AuditStatements.lateArrivals(FROM, Duration.ofMinutes(5)).sql())
                .contains("AS live_records", "AS late_records", "AS oldest_event_time");
        assertThat(AuditStatements.snapshots(AuditTable.POSITIONS, FROM).sql())
                .contains(
                        "snapshot_id",
                        "parent_id",
                        "committed_at",
                        "operation",
                        "AS added_records",
                        "AS deleted_records",
                        "AS total_records");
    }

    private static String withoutComments(String sql) {
        return sql.replaceAll("--[^\n]*", "");
    }

    @Test
    void placeholdersMustAllHaveValuesAndBeUsed() {
        SqlTemplate template = new SqlTemplate("test", "SELECT 1 FROM iceberg.fleet.\"{table}$snapshots\"");

        assertThat(template.render(Map.of("table", "positions")))
                .isEqualTo("SELECT 1 FROM iceberg.fleet.\"positions$snapshots\"");
        assertThatThrownBy(() -> template.render(Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{table} without a value");
        assertThatThrownBy(() -> template.render(Map.of("table", "positions", "as_of", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no placeholder");
    }

    @Test
    void placeholderCountSkipsLiteralsIdentifiersAndComments() {
        assertThat(SqlTemplate.countPlaceholders("SELECT ? FROM t WHERE a = '?' AND \"b?\" = ? -- why?\n AND c = ?"))
                .isEqualTo(3);
        assertThat(SqlTemplate.countPlaceholders("SELECT 'it''s' /* ? */, ?")).isEqualTo(1);
        assertThatThrownBy(() -> new AuditStatement("test", "SELECT ?, ?", List.of("one")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 parameter placeholders but 1 values");
        assertThatThrownBy(() -> new AuditStatement("test", "SELECT ?", List.of(1.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a String or Long");
    }
}
