package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.operations.inspect.CatalogInspector.TableCommits;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CatalogInspectorTest {
    @Test
    void theLastDataCommitIsTheNewestSnapshotThatIsNotACompaction() throws Exception {
        String loadTable =
                """
                {"metadata-location": "s3://warehouse/fleet/positions/metadata/00003.metadata.json",
                 "metadata": {"format-version": 2, "snapshots": [
                   {"snapshot-id": 1, "timestamp-ms": 1000, "summary": {"operation": "append"}},
                   {"snapshot-id": 2, "timestamp-ms": 3000, "summary": {"operation": "overwrite"}},
                   {"snapshot-id": 3, "timestamp-ms": 9000, "summary": {"operation": "replace"}}
                 ]}}
                """;

        assertThat(CatalogInspector.parse("fleet.positions", new ObjectMapper().readTree(loadTable)))
                .isEqualTo(new TableCommits("fleet.positions", Optional.of(Instant.ofEpochMilli(3000)), 3));
    }

    @Test
    void aTableWithoutSnapshotsHasNoCommit() throws Exception {
        assertThat(CatalogInspector.parse("fleet.positions", new ObjectMapper().readTree("{\"metadata\": {}}")))
                .isEqualTo(new TableCommits("fleet.positions", Optional.empty(), 0));
    }

    /** The REST catalog's JSON as the Iceberg REST server writes it: the current snapshot, parents, summaries. */
    @Test
    void theFlinkCommitsAreThoseOfTheCurrentHistoryWithTheirJobCheckpointAndMode() throws Exception {
        String loadTable =
                """
                {"metadata": {"format-version": 2, "current-snapshot-id": 4, "snapshots": [
                   {"snapshot-id": 1, "timestamp-ms": 1000, "summary": {"operation": "append",
                     "flink.job-id": "e1", "flink.max-committed-checkpoint-id": "3", "fleet.pipeline-mode": "embedded"}},
                   {"snapshot-id": 2, "parent-snapshot-id": 1, "timestamp-ms": 2000, "summary": {"operation": "replace"}},
                   {"snapshot-id": 3, "parent-snapshot-id": 2, "timestamp-ms": 3000, "summary": {"operation": "append",
                     "flink.job-id": "gone", "flink.max-committed-checkpoint-id": "1"}},
                   {"snapshot-id": 4, "parent-snapshot-id": 2, "timestamp-ms": 4000, "summary": {"operation": "append",
                     "flink.job-id": "c1", "flink.max-committed-checkpoint-id": "9", "fleet.pipeline-mode": "cluster"}}
                 ]}}
                """;

        assertThat(CatalogInspector.flinkCommits("positions", new ObjectMapper().readTree(loadTable)))
                .containsExactly(
                        new FlinkCommit(
                                "positions", 4, "c1", 9, Instant.ofEpochMilli(4000), Optional.of(PipelineMode.CLUSTER)),
                        new FlinkCommit(
                                "positions",
                                1,
                                "e1",
                                3,
                                Instant.ofEpochMilli(1000),
                                Optional.of(PipelineMode.EMBEDDED)));
        assertThat(CatalogInspector.flinkCommits(
                        "positions",
                        new ObjectMapper()
                                .readTree("{\"metadata\": {\"current-snapshot-id\": -1, \"snapshots\": []}}")))
                .as("a new table")
                .isEmpty();
    }
}
