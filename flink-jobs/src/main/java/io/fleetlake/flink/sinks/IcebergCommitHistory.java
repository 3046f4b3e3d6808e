package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.runtime.CommitHistory;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.model.restore.TableSnapshot;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.flink.CatalogLoader;

/**
 * The Flink commits of {@code fleet.positions}, {@code fleet.rejected_positions} and {@code fleet.vehicle_minutes},
 * read from the table metadata the REST catalog serves (no data file is read): the tables the pipeline's {@code
 * FlinkSink}s commit to, each with the job and checkpoint in its snapshot summaries.
 */
public final class IcebergCommitHistory implements CommitHistory {
    private static final List<TableIdentifier> TABLES =
            List.of(IcebergTableSink.POSITIONS, IcebergTableSink.REJECTED_POSITIONS, IcebergTableSink.VEHICLE_MINUTES);

    private final CatalogLoader catalogLoader;
    private final String catalogUri;

    IcebergCommitHistory(CatalogLoader catalogLoader, String catalogUri) {
        this.catalogLoader = requireNonNull(catalogLoader, "catalogLoader is null");
        this.catalogUri = requireNonNull(catalogUri, "catalogUri is null");
    }

    /** The tables of the configuration's REST catalog. */
    public static IcebergCommitHistory of(FleetPipelineConfig config) {
        return new IcebergCommitHistory(
                CatalogLoader.rest(
                        IcebergTableSink.CATALOG_NAME, new Configuration(), IcebergTableSink.catalogProperties(config)),
                config.catalogUri().toString());
    }

    @Override
    public List<FlinkCommit> flinkCommits() {
        Catalog catalog;
        try {
            catalog = catalogLoader.loadCatalog();
        } catch (RESTException e) {
            throw new IllegalStateException(
                    "Cannot read the tables' history from the Iceberg REST catalog at " + catalogUri
                            + " to decide what the pipeline may restore: " + e.getMessage(),
                    e);
        }
        try {
            List<FlinkCommit> commits = new ArrayList<>();
            for (TableIdentifier identifier : TABLES) {
                commits.addAll(commitsOf(identifier.name(), catalog.loadTable(identifier)));
            }
            return commits;
        } finally {
            if (catalog instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot close Iceberg catalog " + catalog.name(), e);
                }
            }
        }
    }

    /** @param name the table's name in the {@code fleet} namespace */
    static List<FlinkCommit> commitsOf(String name, Table table) {
        List<TableSnapshot> snapshots = new ArrayList<>();
        for (Snapshot snapshot : table.snapshots()) {
            snapshots.add(new TableSnapshot(
                    snapshot.snapshotId(),
                    Optional.ofNullable(snapshot.parentId()),
                    snapshot.timestampMillis(),
                    snapshot.summary()));
        }
        Optional<Long> current = Optional.ofNullable(table.currentSnapshot()).map(Snapshot::snapshotId);
        return TableSnapshot.flinkCommits(name, current, snapshots);
    }
}
