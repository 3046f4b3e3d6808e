package io.fleetlake.dashboard.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrinoHistoryReaderTest {
    @Test
    void snapshotQueriesReadTheSnapshotsMetadataTable() {
        assertThat(TrinoHistoryReader.RECENT_SNAPSHOTS_SQL)
                .startsWith("SELECT snapshot_id, committed_at, operation,")
                .contains("FROM fleet.\"positions$snapshots\"")
                .endsWith("ORDER BY committed_at DESC LIMIT 100");
        assertThat(TrinoHistoryReader.SNAPSHOT_SQL)
                .endsWith("FROM fleet.\"positions$snapshots\" WHERE snapshot_id = ?");
    }

    @Test
    void snapshotRowWithSummaryCounts() {
        Map<String, Object> row = new HashMap<>();
        row.put("snapshot_id", 9_920_562_265_880_443L);
        row.put("committed_at", Instant.parse("2026-11-29T18:00:10Z"));
        row.put("operation", "append");
        row.put("added_records", "1727");
        row.put("total_records", "4080");

        assertThat(TrinoHistoryReader.snapshotOf(row))
                .isEqualTo(new SnapshotInfo(
                        9_920_562_265_880_443L, Instant.parse("2026-11-29T18:00:10Z"), "append", 1727L, 4080L));
    }

    @Test
    void snapshotRowWithoutSummaryCounts() {
        Map<String, Object> row = new HashMap<>();
        row.put("snapshot_id", 1L);
        row.put("committed_at", Instant.parse("2026-11-29T18:00:10Z"));
        row.put("operation", null);
        row.put("added_records", null);
        row.put("total_records", null);

        assertThat(TrinoHistoryReader.snapshotOf(row).addedRecords()).isNull();
    }

    @Test
    void anUnreachableTrinoIsReportedWithoutTheUrlParameters() {
        TrinoHistoryReader reader = new TrinoHistoryReader(new TrinoConnectionFactory(
                "jdbc:trino://127.0.0.1:1/iceberg?password=s3cret&SSL=true",
                "fleet-dashboard",
                "other-secret",
                Optional.empty(),
                "fleet-dashboard"));

        assertThatThrownBy(reader::recentSnapshots)
                .isInstanceOfSatisfying(DashboardException.class, e -> assertThat(e.error())
                        .isEqualTo(DashboardError.TRINO_UNAVAILABLE))
                .hasMessageStartingWith(
                        "Trino at jdbc:trino://127.0.0.1:1/iceberg?*** could not read the snapshot list")
                .hasMessageNotContaining("s3cret")
                .hasMessageNotContaining("other-secret");
    }
}
