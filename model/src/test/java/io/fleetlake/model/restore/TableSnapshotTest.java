package io.fleetlake.model.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.PipelineMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableSnapshotTest {
    private static final long T0 = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();

    @Test
    void aFlinkSinkCommitNamesItsJobCheckpointTimeAndMode() {
        Optional<FlinkCommit> commit = FlinkCommit.of(
                "positions",
                42,
                T0,
                Map.of(
                        "operation", "append",
                        "flink.job-id", "5c1f0000000000000000000000000001",
                        "flink.max-committed-checkpoint-id", "57",
                        "flink.operator-id", "a1b2",
                        "fleet.pipeline-mode", "cluster"));

        assertThat(commit)
                .hasValue(new FlinkCommit(
                        "positions",
                        42,
                        "5c1f0000000000000000000000000001",
                        57,
                        Instant.ofEpochMilli(T0),
                        Optional.of(PipelineMode.CLUSTER)));
    }

    @Test
    void otherWritersAreNotFlinkCommitsAndAnUnknownModeIsUnknown() {
        assertThat(FlinkCommit.of("positions", 1, T0, Map.of("operation", "replace")))
                .as("table maintenance's rewrite")
                .isEmpty();
        assertThat(FlinkCommit.of("positions", 2, T0, Map.of("operation", "overwrite", "trino_query_id", "q")))
                .as("a Trino MERGE")
                .isEmpty();
        assertThat(FlinkCommit.of(
                                "positions",
                                3,
                                T0,
                                Map.of(
                                        "flink.job-id", "j",
                                        "flink.max-committed-checkpoint-id", "9",
                                        "fleet.pipeline-mode", "kubernetes"))
                        .orElseThrow()
                        .mode())
                .isEmpty();
    }

    @Test
    void aCheckpointIdThatIsNoNumberIsReportedWithItsSnapshot() {
        assertThatThrownBy(() -> FlinkCommit.of(
                        "positions", 4, T0, Map.of("flink.job-id", "j", "flink.max-committed-checkpoint-id", "nine")))
                .hasMessage(
                        "Snapshot 4 of positions has flink.max-committed-checkpoint-id = 'nine', not a checkpoint id");
    }

    /**
     * Only the current snapshot and its ancestors are the table's history: a snapshot rolled back, or on another branch,
     * holds no row of the table.
     */
    @Test
    void theCommitsAreThoseOfTheCurrentAncestryNewestFirst() {
        List<TableSnapshot> snapshots = List.of(
                flink(1, null, "j1", 1),
                flink(2, 1L, "j1", 2),
                new TableSnapshot(3, Optional.of(2L), T0 + 3, Map.of("operation", "replace")),
                flink(4, 3L, "j2", 7),
                flink(5, 4L, "rolled-back", 1));

        List<FlinkCommit> commits = TableSnapshot.flinkCommits("positions", Optional.of(4L), snapshots);

        assertThat(commits).extracting(FlinkCommit::snapshotId).containsExactly(4L, 2L, 1L);
        assertThat(TableSnapshot.flinkCommits("positions", Optional.empty(), snapshots))
                .isEmpty();
    }

    /** Snapshot expiry drops the oldest snapshots: the history ends where the metadata stops listing parents. */
    @Test
    void theHistoryEndsAtAnExpiredParent() {
        List<TableSnapshot> snapshots = List.of(flink(8, 7L, "j", 3), flink(9, 8L, "j", 4));

        assertThat(TableSnapshot.flinkCommits("positions", Optional.of(9L), snapshots))
                .extracting(FlinkCommit::checkpointId)
                .containsExactly(4L, 3L);
    }

    private static TableSnapshot flink(long id, Long parent, String job, long checkpoint) {
        return new TableSnapshot(
                id,
                Optional.ofNullable(parent),
                T0 + id,
                Map.of("flink.job-id", job, "flink.max-committed-checkpoint-id", Long.toString(checkpoint)));
    }
}
