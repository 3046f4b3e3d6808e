package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.VehicleMinuteColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.StreamSupport;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ConfigResponseParser;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server in this JVM on a free port, with SQLite in a temporary directory and Iceberg's InMemoryFileIO in place of
 * S3 (its files live in a JVM-wide map, so they survive a server restart), driven by Iceberg's own REST client, without
 * authentication ({@code CatalogAuthenticationIT} covers that).
 */
class RestCatalogServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SCRATCH_SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    private static final TableIdentifier POSITIONS = FleetTables.POSITIONS.identifier();
    private static final TableIdentifier REJECTED_POSITIONS = FleetTables.REJECTED_POSITIONS.identifier();
    private static final TableIdentifier VEHICLE_MINUTES = FleetTables.VEHICLE_MINUTES.identifier();

    @TempDir
    Path dataDirectory;

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String warehouse;
    private CatalogServerConfig config;
    private RestCatalogServer server;

    @BeforeEach
    void startServer() {
        warehouse = "memory://" + UUID.randomUUID() + "/warehouse";
        config = configWith(Map.of());
        server = new RestCatalogServer(config).start();
    }

    @AfterEach
    void stopServer() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        server.close();
    }

    @Test
    void healthCheckAdvertisesOnlyImplementedEndpoints() throws Exception {
        HttpResponse<String> response = get("/v1/config?warehouse=ignored");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        ConfigResponse config = ConfigResponseParser.fromJson(response.body());
        assertThat(config.endpoints())
                .contains(
                        Endpoint.V1_LIST_NAMESPACES,
                        Endpoint.V1_LOAD_TABLE,
                        Endpoint.V1_UPDATE_TABLE,
                        Endpoint.V1_REGISTER_TABLE,
                        Endpoint.V1_REPORT_METRICS,
                        Endpoint.V1_COMMIT_TRANSACTION)
                .contains(
                        Endpoint.V1_LIST_VIEWS,
                        Endpoint.V1_CREATE_VIEW,
                        Endpoint.V1_LOAD_VIEW,
                        Endpoint.V1_VIEW_EXISTS,
                        Endpoint.V1_UPDATE_VIEW,
                        Endpoint.V1_DELETE_VIEW,
                        Endpoint.V1_RENAME_VIEW)
                .doesNotContain(Endpoint.V1_REGISTER_VIEW, Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN)
                .hasSize(23);
        assertThat(config.defaults()).isEmpty();
        assertThat(Files.exists(dataDirectory.resolve("catalog.db"))).isTrue();
    }

    @Test
    void bootstrapsTheFleetTables() {
        RESTCatalog client = client();

        assertThat(client.listNamespaces()).contains(FleetTables.NAMESPACE);
        assertThat(client.listTables(FleetTables.NAMESPACE))
                .containsExactlyInAnyOrder(
                        POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, FleetTables.POSITION_PLACES.identifier());
        assertThat(client.loadTable(FleetTables.POSITION_PLACES.identifier())
                        .schema()
                        .identifierFieldNames())
                .containsExactlyInAnyOrder(PlaceColumns.VEHICLE_ID, PlaceColumns.EVENT_TIME);
        assertThat(client.listViews(FleetTables.NAMESPACE))
                .containsExactly(FleetViews.POSITIONS_WITH_PLACES.identifier());
        View view = client.loadView(FleetViews.POSITIONS_WITH_PLACES.identifier());
        assertThat(FleetViews.upToDate(view, FleetViews.POSITIONS_WITH_PLACES)).isTrue();
        assertThat(view.sqlFor("trino").sql()).isEqualTo(FleetViews.POSITIONS_WITH_PLACES.trinoSql());
        Table table = client.loadTable(POSITIONS);
        assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                .isTrue();
        // The initial schema, then one schema per added column.
        assertThat(table.schemas()).hasSize(FleetTables.POSITIONS.addedColumns().size() + 1);
        assertThat(table.schema().schemaId())
                .isEqualTo(FleetTables.POSITIONS.addedColumns().size())
                .isEqualTo(8);
        assertThat(table.spec().fields()).hasSize(2);
        assertThat(((BaseTable) table).operations().current().formatVersion()).isEqualTo(2);
        assertThat(table.currentSnapshot()).isNull();
        Table rejected = client.loadTable(REJECTED_POSITIONS);
        assertThat(rejected.schema().sameSchema(FleetTables.REJECTED_POSITIONS.latestSchema()))
                .isTrue();
        assertThat(rejected.spec().fields()).hasSize(2);
        // The identifier fields survive the REST round trip: Flink's upsert sink reads them as the row key.
        Table minutes = client.loadTable(VEHICLE_MINUTES);
        assertThat(minutes.schema().sameSchema(FleetTables.VEHICLE_MINUTES.latestSchema()))
                .isTrue();
        assertThat(minutes.schema().identifierFieldNames())
                .containsExactlyInAnyOrder(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
        assertThat(minutes.spec().fields()).hasSize(1);
        assertThat(minutes.sortOrder().fields()).hasSize(2);
        assertThat(((BaseTable) minutes).operations().current().formatVersion()).isEqualTo(2);
    }

    @Test
    void vehicleMinutesAcceptAnUpsertCommit() throws IOException {
        RESTCatalog client = client();
        Table table = client.loadTable(VEHICLE_MINUTES);
        DataFile firstRows = minuteFile(table, 1);
        table.newAppend().appendFile(firstRows).commit();

        // An upsert as Flink commits it: an equality delete on the identifier fields and the replacing rows.
        DeleteFile replaced = FileMetadata.deleteFileBuilder(table.spec())
                .ofEqualityDeletes(table.schema().identifierFieldIds().stream()
                        .mapToInt(Integer::intValue)
                        .sorted()
                        .toArray())
                .withPath(table.location() + "/data/minutes-deletes-1.parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(256)
                .withRecordCount(1)
                .withPartitionPath("window_start_day=2025-06-01")
                .build();
        DataFile replacingRows = minuteFile(table, 2);
        table.newRowDelta().addRows(replacingRows).addDeletes(replaced).commit();

        Table reloaded = client().loadTable(VEHICLE_MINUTES);
        assertThat(reloaded.currentSnapshot().summary())
                .containsEntry(SnapshotSummary.ADD_EQ_DELETE_FILES_PROP, "1")
                .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "1");
        Map<String, List<String>> deletesByFile = new LinkedHashMap<>();
        try (CloseableIterable<FileScanTask> tasks = reloaded.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                deletesByFile.put(
                        task.file().location(),
                        task.deletes().stream().map(DeleteFile::location).toList());
            }
        }
        // The delete applies to the rows committed before it, not to the rows committed with it.
        assertThat(deletesByFile)
                .containsOnly(
                        Map.entry(firstRows.location(), List.of(replaced.location())),
                        Map.entry(replacingRows.location(), List.of()));
    }

    @Test
    void tableReleasedBeforeTheNewColumnGainsItAtTheNextStart() throws IOException {
        // A deployment that ran the catalog before battery_level was defined: the table has the initial schema and
        // data written with it.
        server.close();
        String releasedDirectory = dataDirectory.resolve("released").toString();
        server = new RestCatalogServer(configWith(Map.of(
                        CatalogServerConfig.DATA_DIRECTORY,
                        releasedDirectory,
                        CatalogServerConfig.BOOTSTRAP_TABLES,
                        "false")))
                .start();
        RESTCatalog client = client();
        client.createNamespace(FleetTables.NAMESPACE);
        Table table = client.buildTable(POSITIONS, FleetTables.POSITIONS.initialSchema())
                .withPartitionSpec(FleetTables.POSITIONS.spec())
                .withSortOrder(FleetTables.POSITIONS.sortOrder())
                .withProperties(FleetTables.POSITIONS.properties())
                .create();
        table.newAppend().appendFile(dataFile(table, 1)).commit();
        long releasedSnapshot = table.currentSnapshot().snapshotId();
        server.close();

        server = new RestCatalogServer(configWith(Map.of(CatalogServerConfig.DATA_DIRECTORY, releasedDirectory)))
                .start();

        Table evolved = client().loadTable(POSITIONS);
        assertThat(evolved.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                .isTrue();
        assertThat(evolved.snapshot(releasedSnapshot).schemaId()).isEqualTo(0);
        assertThat(evolved.schemas().get(0).sameSchema(FleetTables.POSITIONS.initialSchema()))
                .isTrue();
        assertThat(evolved.schemas())
                .hasSize(FleetTables.POSITIONS.addedColumns().size() + 1);
        assertThat(files(evolved)).containsExactly(dataFile(table, 1).location());
        assertThat(client().tableExists(REJECTED_POSITIONS)).isTrue();
        assertThat(client().tableExists(VEHICLE_MINUTES)).isTrue();
    }

    @Test
    void appendIsCommittedAndSurvivesRestart() throws IOException {
        RESTCatalog client = client();
        Table table = client.loadTable(POSITIONS);

        table.newAppend().appendFile(dataFile(table, 1)).commit();

        Snapshot committed = client.loadTable(POSITIONS).currentSnapshot();
        assertThat(committed).isNotNull();
        assertThat(committed.summary()).containsEntry("added-records", "10");

        Map<TableIdentifier, String> metadataFiles = metadataFiles(client);
        server.close();
        server = new RestCatalogServer(config).start();

        // The start's bootstrap found every table up to date and wrote nothing.
        assertThat(metadataFiles(client())).hasSize(4).isEqualTo(metadataFiles);
        Table reloaded = client().loadTable(POSITIONS);
        assertThat(reloaded.currentSnapshot().snapshotId()).isEqualTo(committed.snapshotId());
        assertThat(files(reloaded)).containsExactly(dataFile(table, 1).location());
        assertThat(reloaded.history()).hasSize(1);
    }

    @Test
    void concurrentCommitsAndReadsNeverFailOnTheDatabase() throws Exception {
        int writers = 3;
        int commitsPerWriter = 5;
        int readers = 3;
        // Conflicting appends are expected (409) and retried by the client; on a busy machine one writer can lose
        // more often than Iceberg's default 4 retries allow. What must never happen is a database failure (500).
        client().loadTable(POSITIONS)
                .updateProperties()
                .set(TableProperties.COMMIT_NUM_RETRIES, "20")
                .commit();
        ExecutorService executor = Executors.newFixedThreadPool(writers + readers);
        try {
            CyclicBarrier start = new CyclicBarrier(writers + readers);
            AtomicBoolean writing = new AtomicBoolean(true);
            Queue<Integer> readStatuses = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                int first = writer * commitsPerWriter;
                // Each writer and reader has its own client, as separate processes would.
                RESTCatalog client = client();
                writes.add(CompletableFuture.runAsync(
                        () -> {
                            await(start);
                            for (int file = first; file < first + commitsPerWriter; file++) {
                                Table table = client.loadTable(POSITIONS);
                                table.newAppend()
                                        .appendFile(dataFile(table, file))
                                        .commit();
                            }
                        },
                        executor));
            }
            // Readers use plain HTTP: Iceberg's client would hide a server error on a read by retrying it.
            for (int reader = 0; reader < readers; reader++) {
                reads.add(CompletableFuture.runAsync(
                        () -> {
                            await(start);
                            while (writing.get()) {
                                readStatuses.add(get("/v1/namespaces/fleet/tables/positions")
                                        .statusCode());
                                readStatuses.add(
                                        get("/v1/namespaces/fleet/tables").statusCode());
                            }
                        },
                        executor));
            }
            try {
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                        .get(3, TimeUnit.MINUTES);
            } finally {
                writing.set(false);
            }
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
            assertThat(readStatuses).isNotEmpty().containsOnly(200);
        } finally {
            executor.shutdownNow();
        }

        Table table = client().loadTable(POSITIONS);
        // One snapshot per append; the property change above made none.
        assertThat(table.snapshots()).hasSize(writers * commitsPerWriter);
        assertThat(files(table)).hasSize(writers * commitsPerWriter);
    }

    @Test
    void unknownTableIsNotFoundWithIcebergErrorBody() throws Exception {
        HttpResponse<String> response = get("/v1/namespaces/fleet/tables/unknown");

        assertThat(response.statusCode()).isEqualTo(404);
        ErrorResponse error = ErrorResponseParser.fromJson(response.body());
        assertThat(error.code()).isEqualTo(404);
        assertThat(error.type()).isEqualTo("NoSuchTableException");
        assertThat(error.message()).contains("fleet.unknown");
        assertThatThrownBy(() -> client().loadTable(TableIdentifier.of("fleet", "unknown")))
                .isInstanceOf(NoSuchTableException.class);
    }

    @Test
    void tableListingIsPaged() throws IOException {
        client().createTable(TableIdentifier.of("fleet", "scratch"), SCRATCH_SCHEMA);

        // The four fleet tables and scratch: a full page, then the rest.
        JsonNode first =
                JSON.readTree(get("/v1/namespaces/fleet/tables?pageSize=4").body());
        JsonNode second = JSON.readTree(get("/v1/namespaces/fleet/tables?pageSize=4&pageToken="
                        + first.get("next-page-token").asText())
                .body());

        assertThat(first.get("identifiers")).hasSize(4);
        assertThat(second.get("identifiers")).hasSize(1);
        assertThat(second.get("next-page-token").isNull()).isTrue();
        List<String> names = new ArrayList<>(tableNames(first));
        names.addAll(tableNames(second));
        assertThat(names)
                .containsExactlyInAnyOrder(
                        "positions", "rejected_positions", "vehicle_minutes", "position_places", "scratch");
    }

    @Test
    void snapshotLoadingMode() {
        assertThat(get("/v1/namespaces/fleet/tables/positions?snapshots=refs").statusCode())
                .isEqualTo(200);
        HttpResponse<String> invalid = get("/v1/namespaces/fleet/tables/positions?snapshots=some");

        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(ErrorResponseParser.fromJson(invalid.body()).message())
                .isEqualTo("Invalid snapshots = 'some': use all or refs");
    }

    @Test
    void existenceChecks() {
        RESTCatalog client = client();

        assertThat(client.tableExists(POSITIONS)).isTrue();
        assertThat(client.tableExists(TableIdentifier.of("fleet", "unknown"))).isFalse();
        assertThat(client.namespaceExists(FleetTables.NAMESPACE)).isTrue();
        assertThat(client.namespaceExists(Namespace.of("unknown"))).isFalse();
    }

    @Test
    void namespaceLifecycleWithNestedNamespace() {
        RESTCatalog client = client();
        Namespace audit = Namespace.of("fleet", "audit");

        // The client probes the properties for a null key, which immutable maps reject.
        client.createNamespace(audit, new HashMap<>(Map.of("owner", "audit-team")));
        assertThat(client.listNamespaces(FleetTables.NAMESPACE)).containsExactly(audit);
        assertThat(client.loadNamespaceMetadata(audit)).containsEntry("owner", "audit-team");

        client.setProperties(audit, new HashMap<>(Map.of("retention", "90d")));
        client.removeProperties(audit, new HashSet<>(Set.of("owner")));
        assertThat(client.loadNamespaceMetadata(audit))
                .containsEntry("retention", "90d")
                .doesNotContainKey("owner");

        assertThat(client.dropNamespace(audit)).isTrue();
        assertThat(client.namespaceExists(audit)).isFalse();
    }

    @Test
    void tableLifecycle() {
        RESTCatalog client = client();
        TableIdentifier scratch = TableIdentifier.of("fleet", "scratch");
        TableIdentifier renamed = TableIdentifier.of("fleet", "scratch_renamed");
        TableIdentifier staged = TableIdentifier.of("fleet", "staged");
        TableIdentifier registered = TableIdentifier.of("fleet", "positions_copy");

        client.createTable(scratch, SCRATCH_SCHEMA);
        client.renameTable(scratch, renamed);
        assertThat(client.tableExists(scratch)).isFalse();
        assertThat(client.dropTable(renamed, true)).isTrue();
        assertThat(client.tableExists(renamed)).isFalse();

        // A create transaction stages the table, then creates it with the first commit.
        client.buildTable(staged, SCRATCH_SCHEMA).createTransaction().commitTransaction();
        assertThat(client.tableExists(staged)).isTrue();

        String metadata =
                ((BaseTable) client.loadTable(POSITIONS)).operations().current().metadataFileLocation();
        client.registerTable(registered, metadata);
        assertThat(client.loadTable(registered).schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                .isTrue();
        assertThat(client.dropTable(registered, false)).isTrue();
    }

    @Test
    void viewLifecycle() {
        RESTCatalog client = client();
        TableIdentifier view = TableIdentifier.of("fleet", "scratch_view");
        TableIdentifier renamed = TableIdentifier.of("fleet", "scratch_view_renamed");

        client.buildView(view)
                .withSchema(SCRATCH_SCHEMA)
                .withQuery("trino", "SELECT 1 AS id")
                .withDefaultNamespace(FleetTables.NAMESPACE)
                .create();
        assertThat(client.viewExists(view)).isTrue();
        client.loadView(view).updateProperties().set("comment", "scratch").commit();
        assertThat(client.loadView(view).properties()).containsEntry("comment", "scratch");
        client.renameView(view, renamed);
        assertThat(client.viewExists(view)).isFalse();
        assertThat(client.dropView(renamed)).isTrue();
        assertThat(client.viewExists(renamed)).isFalse();
    }

    @Test
    void multiTableTransactionCommitsAllOrNothing() {
        RESTCatalog client = client();
        TableIdentifier first = TableIdentifier.of("fleet", "first");
        TableIdentifier second = TableIdentifier.of("fleet", "second");
        client.createTable(first, SCRATCH_SCHEMA);
        client.createTable(second, SCRATCH_SCHEMA);

        TableMetadata firstBase = metadata(client, first);
        TableMetadata secondBase = metadata(client, second);
        client.commitTransaction(
                TableCommit.create(first, firstBase, withProperty(firstBase, "audit", "1")),
                TableCommit.create(second, secondBase, withProperty(secondBase, "audit", "1")));

        assertThat(client.loadTable(first).properties()).containsEntry("audit", "1");
        assertThat(client.loadTable(second).properties()).containsEntry("audit", "1");

        // The schema of the second table changes after its metadata was read: the transaction's schema change for it
        // fails its requirements, and the first table, whose change was valid, is left unchanged too.
        TableMetadata secondStale = metadata(client, second);
        client.loadTable(second)
                .updateSchema()
                .addColumn("note", Types.StringType.get())
                .commit();
        TableMetadata firstCurrent = metadata(client, first);
        assertThatThrownBy(() -> client.commitTransaction(
                        TableCommit.create(first, firstCurrent, withProperty(firstCurrent, "audit", "2")),
                        TableCommit.create(second, secondStale, withColumn(secondStale, "comment"))))
                .isInstanceOf(CommitFailedException.class)
                .hasMessageContaining("Requirement failed");
        assertThat(client.loadTable(first).properties()).containsEntry("audit", "1");
        assertThat(client.loadTable(second).schema().findField("comment")).isNull();
    }

    @Test
    void metricsReportsAreAccepted() throws Exception {
        String commitReport = "{\"report-type\":\"commit-report\",\"table-name\":\"fleet.positions\","
                + "\"snapshot-id\":1,\"sequence-number\":1,\"operation\":\"append\",\"metrics\":{}}";

        HttpResponse<String> response = post("/v1/namespaces/fleet/tables/positions/metrics", commitReport);

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void invalidMetricsReportIsBadRequest() throws Exception {
        HttpResponse<String> response = post("/v1/namespaces/fleet/tables/positions/metrics", "{\"report-type\":1}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(ErrorResponseParser.fromJson(response.body()).code()).isEqualTo(400);
    }

    /** The test configuration: a free port, SQLite in the temporary directory, files in memory; then overrides. */
    private CatalogServerConfig configWith(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(Map.of(
                CatalogServerConfig.PORT,
                "0",
                CatalogServerConfig.DATA_DIRECTORY,
                dataDirectory.toString(),
                CatalogServerConfig.WAREHOUSE,
                warehouse,
                CatalogServerConfig.IO_IMPLEMENTATION,
                InMemoryFileIO.class.getName(),
                // The catalog's operations, without authentication; CatalogAuthenticationIT tests that.
                CatalogServerConfig.AUTHENTICATION,
                "none"));
        properties.putAll(overrides);
        return CatalogServerConfig.from(ConfigSource.of(properties));
    }

    private RESTCatalog client() {
        RESTCatalog client = new RESTCatalog();
        client.initialize(
                "fleet",
                Map.of(
                        CatalogProperties.URI, server.uri().toString(),
                        CatalogProperties.FILE_IO_IMPL, InMemoryFileIO.class.getName()));
        closeables.add(client);
        return client;
    }

    private static DataFile dataFile(Table table, int number) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/positions-" + number + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(1024)
                .withRecordCount(10)
                .withPartitionPath("event_time_day=2025-06-01/vehicle_id_bucket=" + (number % 16))
                .build();
    }

    private static DataFile minuteFile(Table table, int number) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/minutes-" + number + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(512)
                .withRecordCount(4)
                .withPartitionPath("window_start_day=2025-06-01")
                .build();
    }

    private static Map<TableIdentifier, String> metadataFiles(RESTCatalog client) {
        Map<TableIdentifier, String> files = new LinkedHashMap<>();
        for (TableDefinition definition : FleetTables.ALL) {
            files.put(
                    definition.identifier(),
                    metadata(client, definition.identifier()).metadataFileLocation());
        }
        return files;
    }

    private static List<String> files(Table table) throws IOException {
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            return StreamSupport.stream(tasks.spliterator(), false)
                    .map(task -> task.file().location())
                    .toList();
        }
    }

    private static List<String> tableNames(JsonNode listing) {
        return StreamSupport.stream(listing.get("identifiers").spliterator(), false)
                .map(identifier -> identifier.get("name").asText())
                .toList();
    }

    private static TableMetadata metadata(RESTCatalog client, TableIdentifier table) {
        return ((BaseTable) client.loadTable(table)).operations().current();
    }

    private static TableMetadata withProperty(TableMetadata base, String key, String value) {
        return TableMetadata.buildFrom(base).setProperties(Map.of(key, value)).build();
    }

    private static TableMetadata withColumn(TableMetadata base, String name) {
        List<Types.NestedField> columns = new ArrayList<>(base.schema().columns());
        int columnId = base.lastColumnId() + 1;
        columns.add(Types.NestedField.optional(columnId, name, Types.StringType.get()));
        return TableMetadata.buildFrom(base)
                .setCurrentSchema(new Schema(columns), columnId)
                .build();
    }

    private HttpResponse<String> get(String path) {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create(server.uri() + path))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while calling the catalog", e);
        }
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(server.uri() + path))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Writers did not start together", e);
        }
    }
}
