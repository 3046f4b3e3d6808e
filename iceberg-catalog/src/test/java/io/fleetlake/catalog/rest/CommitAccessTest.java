package io.fleetlake.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.catalog.CatalogRole;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.junit.jupiter.api.Test;

/**
 * Which commits a writer may make and which need a maintainer, read from the JSON a client sends (the same parser as
 * the server's routes), so that the snapshot's operation comes from the request, not from a test double.
 */
class CommitAccessTest {
    @Test
    void appendsOverwritesPropertiesAndTagsAreAWritersCommit() {
        assertThat(required(addSnapshot(DataOperations.APPEND))).isEqualTo(CatalogRole.WRITER);
        assertThat(required(addSnapshot(DataOperations.OVERWRITE))).isEqualTo(CatalogRole.WRITER);
        assertThat(CommitAccess.required(List.of(new MetadataUpdate.SetProperties(Map.of("a", "b")))))
                .isEqualTo(CatalogRole.WRITER);
        assertThat(CommitAccess.required(List.of(new MetadataUpdate.SetSnapshotRef(
                        "audit-2026-12-06", 1L, org.apache.iceberg.SnapshotRefType.TAG, null, null, null))))
                .isEqualTo(CatalogRole.WRITER);
        assertThat(CommitAccess.required(List.of())).isEqualTo(CatalogRole.WRITER);
    }

    @Test
    void rewritesDeletesExpiryAndRemovedReferencesAreAMaintainersCommit() {
        assertThat(required(addSnapshot(DataOperations.REPLACE))).isEqualTo(CatalogRole.MAINTAINER);
        assertThat(required(addSnapshot(DataOperations.DELETE))).isEqualTo(CatalogRole.MAINTAINER);
        assertThat(CommitAccess.required(List.of(new MetadataUpdate.RemoveSnapshots(Set.of(1L)))))
                .isEqualTo(CatalogRole.MAINTAINER);
        assertThat(CommitAccess.required(List.of(new MetadataUpdate.RemoveSnapshotRef(SnapshotRef.MAIN_BRANCH))))
                .isEqualTo(CatalogRole.MAINTAINER);
        assertThat(CommitAccess.required(List.of(
                        new MetadataUpdate.SetProperties(Map.of("a", "b")),
                        new MetadataUpdate.RemoveSnapshots(Set.of(1L)))))
                .isEqualTo(CatalogRole.MAINTAINER);
    }

    private static CatalogRole required(String updateJson) {
        try {
            UpdateTableRequest request = RestJson.newMapper()
                    .readValue("{\"requirements\":[],\"updates\":[" + updateJson + "]}", UpdateTableRequest.class);
            return CommitAccess.required(request.updates());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String addSnapshot(String operation) {
        return "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":7,\"timestamp-ms\":1765058400000,"
                + "\"sequence-number\":1,\"summary\":{\"operation\":\"" + operation + "\"},"
                + "\"manifest-list\":\"memory://m/snap-7.avro\",\"schema-id\":0}}";
    }
}
