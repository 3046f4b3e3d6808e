package io.fleetlake.catalog.rest;

import io.fleetlake.model.catalog.CatalogRole;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.MetadataUpdate;

/**
 * The role a table commit needs, from what it changes. A {@link CatalogRole#WRITER} (the pipeline) adds data: appends,
 * overwrites and row deltas, schema and property changes, branch and tag references. Changes that remove or rewrite
 * history are a {@link CatalogRole#MAINTAINER}'s: a snapshot that replaces files (compaction, manifest rewrites) or
 * deletes them, expiring snapshots, removing references, schemas, partition specs or statistics.
 */
final class CommitAccess {
    /** Snapshot operations that rewrite or remove data rather than add it. */
    private static final Set<String> MAINTENANCE_OPERATIONS = Set.of(DataOperations.REPLACE, DataOperations.DELETE);

    private CommitAccess() {}

    static CatalogRole required(List<MetadataUpdate> updates) {
        for (MetadataUpdate update : updates) {
            if (maintains(update)) {
                return CatalogRole.MAINTAINER;
            }
        }
        return CatalogRole.WRITER;
    }

    private static boolean maintains(MetadataUpdate update) {
        if (update instanceof MetadataUpdate.AddSnapshot added) {
            return MAINTENANCE_OPERATIONS.contains(added.snapshot().operation());
        }
        return update instanceof MetadataUpdate.RemoveSnapshots
                || update instanceof MetadataUpdate.RemoveSnapshotRef
                || update instanceof MetadataUpdate.RemoveSchemas
                || update instanceof MetadataUpdate.RemovePartitionSpecs
                || update instanceof MetadataUpdate.RemoveStatistics
                || update instanceof MetadataUpdate.RemovePartitionStatistics;
    }
}
