package io.fleetlake.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.maintenance.metrics.MaintenanceMetrics;
import io.fleetlake.maintenance.run.CatalogConnection;
import io.fleetlake.maintenance.run.TableMaintainer;
import io.fleetlake.maintenance.run.TableReport;
import io.fleetlake.model.Tables;
import io.fleetlake.model.VehicleMinuteColumns;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Maintenance on the real components (the project's REST catalog with the fleet tables, the S3 server in its own
 * process) while a writer keeps committing to {@code fleet.positions} (appends) and {@code fleet.vehicle_minutes}
 * (upserts with equality deletes) in a loop, as the pipeline does at every checkpoint.
 */
class MaintenanceBesideStreamingWriterIT {
    private static final TableIdentifier POSITIONS = TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS);
    private static final TableIdentifier MINUTES = TableIdentifier.of(Tables.NAMESPACE, Tables.VEHICLE_MINUTES);
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final String TAG = "audit-2026-11-30";

    private static Path directory;
    private static ServerProcess s3;
    private static ServerProcess catalogServer;

    @BeforeAll
    static void startServers() throws IOException {
        directory = Files.createDirectories(Path.of("target", "it-maintenance-" + System.currentTimeMillis())
                .toAbsolutePath());
        s3 = ServerProcess.s3(directory);
        catalogServer = ServerProcess.catalog(directory, s3.endpoint());
    }

    @AfterAll
    static void stopServers() {
        if (catalogServer != null) {
            catalogServer.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void compactionAndExpiryRunWhileTheWriterCommitsAndChangeNoResult() throws Exception {
        MaintenanceConfig config = config(Map.of(
                // Snapshots older than a few seconds expire, so expiry runs while the writer commits.
                MaintenanceConfig.SNAPSHOT_RETENTION, "3s",
                MaintenanceConfig.MIN_INPUT_FILES, "2",
                MaintenanceConfig.DELETE_FILE_THRESHOLD, "2",
                MaintenanceConfig.MANIFEST_REWRITE_MIN_COUNT, "2"));
        Instant day = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1));
        ExecutorService threads = Executors.newSingleThreadExecutor();
        ExecutorService deletes = Executors.newFixedThreadPool(2);
        try (RESTCatalog writerCatalog = CatalogConnection.open(config);
                RESTCatalog maintenanceCatalog = CatalogConnection.open(config)) {
            StreamingWriter writer = new StreamingWriter(writerCatalog, POSITIONS, MINUTES, day);
            for (int commit = 0; commit < 10; commit++) {
                writer.commitOnce();
            }
            Table positions = maintenanceCatalog.loadTable(POSITIONS);
            long firstSnapshot = firstSnapshotWithRows(positions);
            long tagged = positions.currentSnapshot().snapshotId();
            long taggedRows = writer.rowsAppended();
            positions
                    .manageSnapshots()
                    .createTag(TAG, tagged)
                    .setMaxRefAgeMs(TAG, Duration.ofDays(400).toMillis())
                    .commit();
            Path oldOrphan = orphan(positions, "data/orphan-of-a-failover.parquet", Duration.ofDays(10));
            Path pending = orphan(positions, "data/written-not-yet-committed.parquet", Duration.ofHours(1));

            Future<?> writing = threads.submit(writer);
            await().atMost(TIMEOUT).until(() -> writer.commits() >= 15);
            TableMaintainer maintainer = new TableMaintainer(maintenanceCatalog, config, Clock.systemUTC(), deletes);
            MaintenanceMetrics metrics = new MaintenanceMetrics();
            List<TableReport> reports = new ArrayList<>();
            for (int run = 0; run < 3; run++) {
                int commitsBefore = writer.commits();
                for (TableIdentifier table : List.of(POSITIONS, MINUTES)) {
                    TableReport report = maintainer.maintain(table, false, message -> {});
                    metrics.record(report);
                    reports.add(report);
                }
                // The writer keeps committing between and during the runs.
                await().atMost(TIMEOUT).until(() -> writer.commits() >= commitsBefore + 3 || writer.failure() != null);
            }
            writer.stop();
            writing.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            assertThat(writer.failure()).as("no commit of the writer failed").isNull();
            assertThat(reports)
                    .allSatisfy(report -> assertThat(report.failures()).isEmpty());
            assertThat(reports.stream()
                            .mapToLong(report -> report.compaction().filesRewritten())
                            .sum())
                    .isPositive();
            assertThat(reports.stream()
                            .mapToLong(report -> report.expiry().snapshotsExpired())
                            .sum())
                    .isPositive();

            positions.refresh();
            assertThat(count(positions, null)).isEqualTo(writer.rowsAppended());
            assertThat(minutes(maintenanceCatalog.loadTable(MINUTES))).isEqualTo(writer.lastUpserts());
            assertThat(count(positions, TAG)).as("time travel to the tag").isEqualTo(taggedRows);
            assertThat(positions.snapshot(tagged)).isNotNull();
            assertThat(positions.snapshot(firstSnapshot))
                    .as("an old untagged snapshot expired")
                    .isNull();
            assertThat(positions.refs()).containsKey(TAG);
            assertThat(Files.exists(oldOrphan))
                    .as("an orphan older than the minimum age")
                    .isFalse();
            assertThat(Files.exists(pending))
                    .as("a recent unreferenced file, maybe about to be committed")
                    .isTrue();

            // Once the writer stops, a run compacts every partition down to one file.
            maintainer.maintain(POSITIONS, false, message -> {});
            maintainer.maintain(MINUTES, false, message -> {});
            positions.refresh();
            Table minutes = maintenanceCatalog.loadTable(MINUTES);
            assertThat(filesPerPartition(positions).values()).allMatch(files -> files == 1);
            assertThat(count(positions, null)).isEqualTo(writer.rowsAppended());
            assertThat(minutes(minutes)).isEqualTo(writer.lastUpserts());
            assertThat(deleteFiles(minutes))
                    .as("the equality deletes were applied by compaction and dropped as dangling")
                    .isZero();
            assertThat(metrics.scrape())
                    .contains("fleet_maintenance_runs_total{outcome=\"succeeded\",table=\"fleet.positions\"} 3.0")
                    .contains("fleet_maintenance_last_run_success{table=\"fleet.vehicle_minutes\"} 1.0");
        } finally {
            threads.shutdownNow();
            deletes.shutdownNow();
        }
    }

    @Test
    void aDryRunChangesNothing() throws Exception {
        MaintenanceConfig config =
                config(Map.of(MaintenanceConfig.SNAPSHOT_RETENTION, "1s", MaintenanceConfig.MIN_INPUT_FILES, "2"));
        ExecutorService deletes = Executors.newSingleThreadExecutor();
        try (RESTCatalog catalog = CatalogConnection.open(config)) {
            StreamingWriter writer = new StreamingWriter(
                    catalog, POSITIONS, MINUTES, Instant.now().truncatedTo(ChronoUnit.DAYS));
            for (int commit = 0; commit < 3; commit++) {
                writer.commitOnce();
            }
            Table table = catalog.loadTable(POSITIONS);
            String metadataBefore =
                    ((HasTableOperations) table).operations().current().metadataFileLocation();

            TableReport plan = new TableMaintainer(catalog, config, Clock.systemUTC(), deletes)
                    .maintain(POSITIONS, true, message -> {});

            table.refresh();
            assertThat(plan.outcome()).isEqualTo(TableReport.Outcome.DRY_RUN);
            assertThat(plan.compaction().filesRewritten()).as("planned").isPositive();
            assertThat(plan.compaction().filesAdded()).isZero();
            assertThat(((HasTableOperations) table).operations().current().metadataFileLocation())
                    .isEqualTo(metadataBefore);
        } finally {
            deletes.shutdownNow();
        }
    }

    private static MaintenanceConfig config(Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>(Map.of(
                MaintenanceConfig.CATALOG_URI,
                catalogServer.endpoint(),
                MaintenanceConfig.CATALOG_CREDENTIAL,
                catalogServer.catalogCredential(),
                MaintenanceConfig.S3_ENDPOINT,
                s3.endpoint(),
                MaintenanceConfig.S3_ACCESS_KEY,
                ServerProcess.ACCESS_KEY,
                MaintenanceConfig.S3_SECRET_KEY,
                ServerProcess.SECRET_KEY,
                MaintenanceConfig.COMMIT_ATTEMPTS,
                "10"));
        values.putAll(overrides);
        return MaintenanceConfig.from(ConfigSource.of(values));
    }

    /** A file in the table's storage that no metadata refers to, with its modification time set {@code age} back. */
    private static Path orphan(Table table, String relative, Duration age) throws IOException {
        String location = table.location() + "/" + relative;
        try (OutputStream out = table.io().newOutputFile(location).create()) {
            out.write(new byte[] {1, 2, 3});
        }
        String key = location.substring("s3://".length());
        String bucket = key.substring(0, key.indexOf('/'));
        Path file = s3.objectFile(bucket, key.substring(bucket.length() + 1));
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return file;
    }

    private static long firstSnapshotWithRows(Table table) {
        long first = table.currentSnapshot().snapshotId();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.addedDataFiles(table.io()).iterator().hasNext()) {
                return snapshot.snapshotId();
            }
        }
        return first;
    }

    private static long count(Table table, String ref) throws IOException {
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (ref != null) {
            scan = scan.useSnapshot(table.refs().get(ref).snapshotId());
        }
        long rows = 0;
        try (CloseableIterable<Record> records = scan.build()) {
            for (Record ignored : records) {
                rows++;
            }
        }
        return rows;
    }

    private static Map<String, Integer> minutes(Table table) throws IOException {
        Map<String, Integer> rows = new HashMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                String key = record.getField(VehicleMinuteColumns.VEHICLE_ID) + "@"
                        + ((OffsetDateTime) record.getField(VehicleMinuteColumns.WINDOW_START)).toInstant();
                Integer previous = rows.put(key, (Integer) record.getField(VehicleMinuteColumns.POSITIONS));
                assertThat(previous).as("one row per key %s", key).isNull();
            }
        }
        return rows;
    }

    private static long deleteFiles(Table table) throws IOException {
        return Long.parseLong(table.currentSnapshot().summary().getOrDefault("total-delete-files", "0"));
    }

    private static Map<String, Integer> filesPerPartition(Table table) throws IOException {
        Map<String, Integer> files = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                files.merge(table.spec().partitionToPath(task.file().partition()), 1, Integer::sum);
            }
        }
        return files;
    }
}
