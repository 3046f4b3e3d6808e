package io.fleetlake.stack.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.stack.inspect.CatalogInspector.TableCommits;
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
}
