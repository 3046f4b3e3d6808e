package io.fleetlake.trino.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;

/** Iceberg table metadata JSON for tests, in the shape the REST catalog sends (only the fields the audits read). */
final class TableMetadataJson {
    static final String TABLE_UUID = "115c1c41-d8c4-42e6-9f4c-0e9ef79c198c";

    private final ObjectMapper mapper = new ObjectMapper();
    private final ObjectNode metadata = mapper.createObjectNode();

    TableMetadataJson() {
        metadata.put("format-version", 2);
        metadata.put("table-uuid", TABLE_UUID);
        metadata.put("current-snapshot-id", -1);
        metadata.putArray("snapshots");
        metadata.putObject("refs");
    }

    /** Appends a snapshot to the main branch (its parent is the branch's previous head). */
    TableMetadataJson commit(long snapshotId, String committedAt) {
        ObjectNode snapshot = metadata.withArray("snapshots").addObject();
        snapshot.put("snapshot-id", snapshotId);
        if (metadata.path("refs").has("main")) {
            snapshot.put(
                    "parent-snapshot-id",
                    metadata.path("refs").path("main").path("snapshot-id").asLong());
        }
        snapshot.put("timestamp-ms", Instant.parse(committedAt).toEpochMilli());
        snapshot.putObject("summary").put("operation", "append");
        metadata.put("current-snapshot-id", snapshotId);
        ((ObjectNode) metadata.path("refs"))
                .putObject("main")
                .put("snapshot-id", snapshotId)
                .put("type", "branch");
        return this;
    }

    /** Removes a snapshot from the list, as snapshot expiry does (refs are left as they are). */
    TableMetadataJson expire(long snapshotId) {
        var snapshots = metadata.withArray("snapshots");
        for (int index = 0; index < snapshots.size(); index++) {
            if (snapshots.get(index).path("snapshot-id").asLong() == snapshotId) {
                snapshots.remove(index);
                return this;
            }
        }
        throw new IllegalArgumentException("No snapshot " + snapshotId);
    }

    TableMetadataJson ref(String name, String type, long snapshotId) {
        ((ObjectNode) metadata.path("refs"))
                .putObject(name)
                .put("snapshot-id", snapshotId)
                .put("type", type);
        return this;
    }

    TableMetadataJson tag(String name, long snapshotId, long maxRefAgeMs) {
        ((ObjectNode) metadata.path("refs"))
                .putObject(name)
                .put("snapshot-id", snapshotId)
                .put("type", "tag")
                .put("max-ref-age-ms", maxRefAgeMs);
        return this;
    }

    ObjectNode json() {
        return metadata;
    }

    TableMetadataView view() {
        return TableMetadataView.parse(metadata);
    }

    /** The {@code LoadTableResult} recorded from the fleet's REST catalog after two tags and a snapshot expiry. */
    static ObjectNode recordedLoadTableResult() {
        try (InputStream input = TableMetadataJson.class.getResourceAsStream("load-table-positions.json")) {
            return (ObjectNode) new ObjectMapper().readTree(input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
