package io.fleetlake.flink.runtime;

import io.fleetlake.model.restore.FlinkCommit;
import java.util.List;

/**
 * The Flink commits in the current history of every Iceberg table the pipeline writes, which the restore guard judges a
 * restore point against. Production reads them through the REST catalog ({@code IcebergCommitHistory}); tests of the
 * runner pass a list.
 */
@FunctionalInterface
public interface CommitHistory {
    /** Every Flink commit of every table, in any order. */
    List<FlinkCommit> flinkCommits();

    /** Tables without a Flink commit: a new data folder, or a job whose sinks are not Iceberg's. */
    static CommitHistory none() {
        return List::of;
    }
}
