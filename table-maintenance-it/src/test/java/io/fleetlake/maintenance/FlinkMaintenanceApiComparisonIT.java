package io.fleetlake.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.maintenance.run.CatalogConnection;
import io.fleetlake.maintenance.run.TableMaintainer;
import io.fleetlake.maintenance.run.TableReport;
import io.fleetlake.model.Tables;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.maintenance.api.DeleteOrphanFiles;
import org.apache.iceberg.flink.maintenance.api.ExpireSnapshots;
import org.apache.iceberg.flink.maintenance.api.RewriteDataFiles;
import org.apache.iceberg.flink.maintenance.api.TableMaintenance;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two candidate mechanisms on the same work: two copies of a table get the same 40 streaming commits, one is
 * maintained by Iceberg's Flink table-maintenance API (a streaming job on a local Flink cluster: RewriteDataFiles,
 * ExpireSnapshots, DeleteOrphanFiles), the other by this module's {@link TableMaintainer}. Both must compact every
 * partition to one file and expire the old snapshots with the rows unchanged; the wall time and the CPU time of each
 * are logged (the README's choice; never asserted, the machine is shared).
 */
class FlinkMaintenanceApiComparisonIT {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkMaintenanceApiComparisonIT.class);
    private static final Namespace PROBE = Namespace.of("probe");
    private static final int COMMITS = 40;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private static ServerProcess s3;
    private static ServerProcess catalogServer;

    @BeforeAll
    static void startServers() throws IOException {
        Path directory = Files.createDirectories(
                Path.of("target", "it-comparison-" + System.currentTimeMillis()).toAbsolutePath());
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
    void bothMechanismsCompactAndExpireTheSameHistory() throws Exception {
        MaintenanceConfig config = MaintenanceConfig.from(ConfigSource.of(Map.of(
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
                MaintenanceConfig.SNAPSHOT_RETENTION,
                "1s",
                MaintenanceConfig.MIN_INPUT_FILES,
                "2")));
        try (RESTCatalog catalog = CatalogConnection.open(config)) {
            TableIdentifier flinkApi = copyOfPositions(catalog, "positions_flink_api");
            TableIdentifier service = copyOfPositions(catalog, "positions_service");
            TableIdentifier minutes = TableIdentifier.of(Tables.NAMESPACE, Tables.VEHICLE_MINUTES);
            Instant day = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1));
            StreamingWriter first = new StreamingWriter(catalog, flinkApi, minutes, day);
            StreamingWriter second = new StreamingWriter(catalog, service, minutes, day);
            for (int commit = 0; commit < COMMITS; commit++) {
                first.commitOnce();
                second.commitOnce();
            }
            long rows = first.rowsAppended();
            // Snapshots older than 1 s expire in both runs: let the last one age past that.
            Instant written = Instant.now();
            await().until(() -> Instant.now().isAfter(written.plusSeconds(2)));

            Measured flink = measure(() -> runFlinkTableMaintenance(config, catalog, flinkApi));
            ExecutorService deletes = Executors.newFixedThreadPool(2);
            Measured scheduled;
            try {
                TableMaintainer maintainer = new TableMaintainer(catalog, config, Clock.systemUTC(), deletes);
                scheduled = measure(() -> {
                    TableReport report = maintainer.maintain(service, false, message -> {});
                    assertThat(report.failures()).isEmpty();
                });
            } finally {
                deletes.shutdownNow();
            }

            for (TableIdentifier identifier : Set.of(flinkApi, service)) {
                Table table = catalog.loadTable(identifier);
                assertThat(filesPerPartition(table).values())
                        .as("%s compacted", identifier)
                        .allMatch(n -> n == 1);
                assertThat(rowCount(table)).isEqualTo(rows);
                assertThat(table.snapshots()).as("%s expired", identifier).hasSizeLessThan(5);
            }
            LOG.info(
                    "Maintenance of {} commits, compaction + expiry + orphan removal. Flink table-maintenance API"
                            + " (local cluster, start-up included): {}. Scheduled service (TableMaintainer): {}.",
                    COMMITS,
                    flink.describe(),
                    scheduled.describe());
        }
    }

    /** The Flink API as documented for a standalone maintenance job, waited for until the table is maintained. */
    private static void runFlinkTableMaintenance(MaintenanceConfig config, RESTCatalog catalog, TableIdentifier id)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(10_000);
        Map<String, String> properties = new HashMap<>(catalog.properties());
        properties.putAll(Map.of(
                "uri",
                config.catalogUri().toString(),
                "io-impl",
                "org.apache.iceberg.aws.s3.S3FileIO",
                "s3.endpoint",
                s3.endpoint(),
                "s3.path-style-access",
                "true",
                "s3.access-key-id",
                ServerProcess.ACCESS_KEY,
                "s3.secret-access-key",
                ServerProcess.SECRET_KEY,
                "client.region",
                "us-east-1"));
        properties.putAll(catalogServer.catalogAuthentication());
        TableLoader loader = TableLoader.fromCatalog(
                CatalogLoader.rest("probe", new org.apache.hadoop.conf.Configuration(), properties), id);
        TableMaintenance.forTable(env, loader)
                .uidSuffix("comparison")
                .rateLimit(Duration.ofSeconds(1))
                .lockCheckDelay(Duration.ofSeconds(1))
                .add(RewriteDataFiles.builder()
                        .scheduleOnCommitCount(1)
                        .targetFileSizeBytes(config.targetFileSizeBytes())
                        .minInputFiles(2))
                .add(ExpireSnapshots.builder()
                        .scheduleOnCommitCount(1)
                        .maxSnapshotAge(Duration.ofSeconds(1))
                        .retainLast(1))
                .add(DeleteOrphanFiles.builder()
                        .scheduleOnCommitCount(1)
                        .minAge(config.orphanMinAge())
                        .usePrefixListing(true))
                .append();
        JobClient job = env.executeAsync("table-maintenance-comparison");
        try {
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
                Table table = catalog.loadTable(id);
                return filesPerPartition(table).values().stream().allMatch(n -> n == 1)
                        && sizeOf(table.snapshots()) < 5;
            });
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static TableIdentifier copyOfPositions(RESTCatalog catalog, String name) {
        if (!catalog.namespaceExists(PROBE)) {
            catalog.createNamespace(PROBE);
        }
        Table template = catalog.loadTable(TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS));
        TableIdentifier identifier = TableIdentifier.of(PROBE, name);
        catalog.buildTable(identifier, template.schema())
                .withPartitionSpec(template.spec())
                .withSortOrder(template.sortOrder())
                .withProperties(template.properties())
                .create();
        return identifier;
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

    private static long rowCount(Table table) throws IOException {
        long rows = 0;
        Set<String> seen = new HashSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                if (seen.add(task.file().location())) {
                    rows += task.file().recordCount();
                }
            }
        }
        return rows;
    }

    private static long sizeOf(Iterable<?> items) {
        long count = 0;
        for (Object ignored : items) {
            count++;
        }
        return count;
    }

    private static Measured measure(Work work) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        work.run();
        return new Measured(
                Duration.ofNanos(System.nanoTime() - start), Duration.ofNanos(os.getProcessCpuTime() - cpuBefore));
    }

    @FunctionalInterface
    private interface Work {
        void run() throws Exception;
    }

    private record Measured(Duration wall, Duration cpu) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "%.1f s wall, %.1f s CPU of the test JVM",
                    wall.toMillis() / 1000.0,
                    cpu.toMillis() / 1000.0);
        }
    }
}
