package io.fleetlake.maintenance.run;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;

/**
 * Rewrites the data manifests of the current snapshot into one manifest per partition spec and first partition field
 * (the day, in every fleet table), once there are at least the configured number of them. Each streaming commit adds
 * a manifest; Iceberg merges them itself only at 100, and a scan opens every manifest of the snapshot it reads.
 */
final class ManifestRewrite {
    private final int minCount;

    ManifestRewrite(int minCount) {
        this.minCount = minCount;
    }

    StepResults.Manifests run(Table table, boolean dryRun) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return StepResults.Manifests.NONE;
        }
        int before = snapshot.dataManifests(table.io()).size();
        if (before < minCount || dryRun) {
            return new StepResults.Manifests(false, before, before);
        }
        table.rewriteManifests().clusterBy(ManifestRewrite::clusterKey).commit();
        table.refresh();
        return new StepResults.Manifests(
                true, before, table.currentSnapshot().dataManifests(table.io()).size());
    }

    private static String clusterKey(DataFile file) {
        StructLike partition = file.partition();
        return file.specId() + ":" + (partition.size() == 0 ? "" : String.valueOf(partition.get(0, Object.class)));
    }
}
