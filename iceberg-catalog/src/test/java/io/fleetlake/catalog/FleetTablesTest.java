package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.codec.PositionField;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetTablesTest {
    private static final Map<PositionField, Type> POSITION_COLUMN_TYPES = Map.of(
            PositionField.VEHICLE_ID, Types.StringType.get(),
            PositionField.EVENT_TIME, Types.TimestampType.withZone(),
            PositionField.LATITUDE, Types.DoubleType.get(),
            PositionField.LONGITUDE, Types.DoubleType.get(),
            PositionField.SPEED_KMH, Types.DoubleType.get(),
            PositionField.HEADING_DEG, Types.DoubleType.get(),
            PositionField.ALTITUDE_M, Types.DoubleType.get(),
            PositionField.ACCURACY_M, Types.DoubleType.get(),
            PositionField.SATELLITES, Types.IntegerType.get(),
            PositionField.BATTERY_LEVEL, Types.DoubleType.get());

    private static final List<PositionField> OPTIONAL_MEASUREMENTS = List.of(
            PositionField.ALTITUDE_M, PositionField.ACCURACY_M, PositionField.SATELLITES, PositionField.BATTERY_LEVEL);

    /** The columns of fleet.positions as released before battery_level, with the field ids tables already have. */
    private static final List<String> POSITIONS_V1_COLUMNS = List.of(
            "vehicle_id",
            "event_time",
            "latitude",
            "longitude",
            "speed_kmh",
            "heading_deg",
            "altitude_m",
            "accuracy_m",
            "satellites",
            "source_partition",
            "source_offset",
            "ingest_time");

    private static final TableIdentifier POSITIONS = FleetTables.POSITIONS.identifier();
    private static final TableIdentifier REJECTED_POSITIONS = FleetTables.REJECTED_POSITIONS.identifier();
    private static final String BATTERY_LEVEL = PositionField.BATTERY_LEVEL.fieldName();

    @TempDir
    Path dataDirectory;

    @Test
    void everyPositionFieldHasAColumnOfTheRightTypeInTheLatestSchema() {
        Schema latest = FleetTables.POSITIONS.latestSchema();

        assertThat(POSITION_COLUMN_TYPES).containsOnlyKeys(PositionField.values());
        for (PositionField field : PositionField.values()) {
            Types.NestedField column = latest.findField(field.fieldName());
            assertThat(column).as(field.fieldName()).isNotNull();
            assertThat(column.type()).as(field.fieldName()).isEqualTo(POSITION_COLUMN_TYPES.get(field));
            assertThat(column.isOptional()).as(field.fieldName()).isEqualTo(OPTIONAL_MEASUREMENTS.contains(field));
            assertThat(column.doc()).as(field.fieldName()).isNotBlank();
        }
        assertThat(latest.columns()).hasSize(PositionField.values().length + 3);
    }

    @Test
    void initialPositionsSchemaIsVersionOneWithUnchangedFieldIds() {
        Schema initial = FleetTables.POSITIONS.initialSchema();

        assertThat(initial.columns())
                .extracting(Types.NestedField::name)
                .containsExactlyElementsOf(POSITIONS_V1_COLUMNS);
        for (int index = 0; index < POSITIONS_V1_COLUMNS.size(); index++) {
            assertThat(initial.findField(POSITIONS_V1_COLUMNS.get(index)).fieldId())
                    .as(POSITIONS_V1_COLUMNS.get(index))
                    .isEqualTo(index + 1);
        }
        assertThat(initial.findField(BATTERY_LEVEL)).isNull();
    }

    @Test
    void batteryLevelIsAddedAsOptionalDoubleWithTheNextFieldId() {
        assertThat(FleetTables.POSITIONS.addedColumns())
                .extracting(TableDefinition.AddedColumn::name)
                .containsExactly(BATTERY_LEVEL);
        Types.NestedField column = FleetTables.POSITIONS.latestSchema().findField(BATTERY_LEVEL);
        assertThat(column.fieldId()).isEqualTo(13);
        assertThat(column.isOptional()).isTrue();
        assertThat(column.type()).isEqualTo(Types.DoubleType.get());
        assertThat(column.doc()).contains("percent", "firmware 1.x");
    }

    @Test
    void lineageColumnsAreRequired() {
        assertLineage(LineageColumns.SOURCE_PARTITION, Types.IntegerType.get());
        assertLineage(LineageColumns.SOURCE_OFFSET, Types.LongType.get());
        assertLineage(LineageColumns.INGEST_TIME, Types.TimestampType.withZone());
    }

    @Test
    void positionsArePartitionedByDayOfEventTimeAndVehicleBucket() {
        List<PartitionField> fields = FleetTables.POSITIONS.spec().fields();

        assertThat(fields).hasSize(2);
        assertPartitionField(FleetTables.POSITIONS, fields.get(0), PositionField.EVENT_TIME.fieldName(), "day");
        assertPartitionField(FleetTables.POSITIONS, fields.get(1), PositionField.VEHICLE_ID.fieldName(), "bucket[16]");
    }

    @Test
    void positionsAreSortedByVehicleThenEventTime() {
        List<SortField> fields = FleetTables.POSITIONS.sortOrder().fields();

        assertThat(fields).hasSize(2);
        assertSortField(FleetTables.POSITIONS, fields.get(0), PositionField.VEHICLE_ID.fieldName());
        assertSortField(FleetTables.POSITIONS, fields.get(1), PositionField.EVENT_TIME.fieldName());
    }

    @Test
    void rejectedPositionsColumns() {
        Map<String, Type> types = new LinkedHashMap<>();
        types.put(RejectedColumns.REJECTED_AT, Types.TimestampType.withZone());
        types.put(RejectedColumns.REASON, Types.StringType.get());
        types.put(RejectedColumns.DETAIL, Types.StringType.get());
        types.put(RejectedColumns.SOURCE_TOPIC, Types.StringType.get());
        types.put(RejectedColumns.SOURCE_PARTITION, Types.IntegerType.get());
        types.put(RejectedColumns.SOURCE_OFFSET, Types.LongType.get());
        types.put(RejectedColumns.INGEST_TIME, Types.TimestampType.withZone());
        types.put(RejectedColumns.VEHICLE_ID, Types.StringType.get());
        types.put(RejectedColumns.EVENT_TIME, Types.TimestampType.withZone());
        types.put(RejectedColumns.PAYLOAD, Types.BinaryType.get());
        types.put(RejectedColumns.PAYLOAD_SIZE, Types.IntegerType.get());
        List<String> optional = List.of(RejectedColumns.VEHICLE_ID, RejectedColumns.EVENT_TIME);
        Schema schema = FleetTables.REJECTED_POSITIONS.latestSchema();

        assertThat(types.keySet()).containsExactlyInAnyOrderElementsOf(rejectedColumnConstants());
        assertThat(schema.columns()).extracting(Types.NestedField::name).containsExactlyElementsOf(types.keySet());
        for (Types.NestedField column : schema.columns()) {
            assertThat(column.type()).as(column.name()).isEqualTo(types.get(column.name()));
            assertThat(column.isOptional()).as(column.name()).isEqualTo(optional.contains(column.name()));
            assertThat(column.doc()).as(column.name()).isNotBlank();
        }
        assertThat(FleetTables.REJECTED_POSITIONS.addedColumns()).isEmpty();
    }

    @Test
    void rejectedPositionsArePartitionedByDayAndReasonAndSortedByRejectionTime() {
        List<PartitionField> partitionFields =
                FleetTables.REJECTED_POSITIONS.spec().fields();
        List<SortField> sortFields = FleetTables.REJECTED_POSITIONS.sortOrder().fields();

        assertThat(partitionFields).hasSize(2);
        assertPartitionField(
                FleetTables.REJECTED_POSITIONS, partitionFields.get(0), RejectedColumns.REJECTED_AT, "day");
        assertPartitionField(
                FleetTables.REJECTED_POSITIONS, partitionFields.get(1), RejectedColumns.REASON, "identity");
        assertThat(sortFields).hasSize(1);
        assertSortField(FleetTables.REJECTED_POSITIONS, sortFields.get(0), RejectedColumns.REJECTED_AT);
    }

    @Test
    void everyTableIsFormatVersionTwoParquetWithMetadataCleanup() {
        assertThat(FleetTables.ALL)
                .extracting(TableDefinition::identifier)
                .containsExactly(POSITIONS, REJECTED_POSITIONS);
        for (TableDefinition definition : FleetTables.ALL) {
            assertThat(definition.properties())
                    .as(definition.identifier().toString())
                    .containsEntry(TableProperties.FORMAT_VERSION, "2")
                    .containsEntry(TableProperties.DEFAULT_FILE_FORMAT, "parquet")
                    .containsEntry(TableProperties.PARQUET_COMPRESSION, "zstd")
                    .containsEntry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true")
                    .containsEntry(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "100");
        }
    }

    @Test
    void freshCatalogGetsBothTablesAndTheSchemaHistory() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);

            assertThat(catalog.listTables(FleetTables.NAMESPACE))
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS);
            Table positions = catalog.loadTable(POSITIONS);
            assertThat(formatVersion(positions)).isEqualTo(2);
            assertThat(positions.schemas()).containsOnlyKeys(0, 1);
            assertThat(positions.schemas().get(0).sameSchema(FleetTables.POSITIONS.initialSchema()))
                    .isTrue();
            assertThat(positions.schemas().get(0).findField(BATTERY_LEVEL)).isNull();
            assertThat(positions.schema().schemaId()).isEqualTo(1);
            assertThat(positions.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(positions.spec().fields()).hasSize(2);
            assertThat(positions.sortOrder().fields()).hasSize(2);
            assertThat(positions.properties()).containsAllEntriesOf(withoutFormatVersion(FleetTables.TABLE_PROPERTIES));

            Table rejected = catalog.loadTable(REJECTED_POSITIONS);
            assertThat(formatVersion(rejected)).isEqualTo(2);
            assertThat(rejected.schemas()).containsOnlyKeys(0);
            assertThat(rejected.schema().sameSchema(FleetTables.REJECTED_POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(rejected.spec().fields())
                    .extracting(field -> field.transform().toString())
                    .containsExactly("day", "identity");
            assertThat(rejected.sortOrder().fields()).hasSize(1);
            assertThat(rejected.properties()).containsAllEntriesOf(withoutFormatVersion(FleetTables.TABLE_PROPERTIES));
        }
    }

    @Test
    void tableCreatedBeforeTheEvolutionGainsTheColumnAndKeepsItsHistory() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            Table released = createReleasedPositionsTable(catalog);
            released.newAppend().appendFile(dataFile(released)).commit();
            Snapshot before = released.currentSnapshot();

            FleetTables.ensure(catalog);

            Table table = catalog.loadTable(POSITIONS);
            assertThat(table.schema().schemaId()).isEqualTo(1);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(table.snapshots()).hasSize(1);
            Snapshot old = table.snapshot(before.snapshotId());
            assertThat(old.schemaId()).isEqualTo(0);
            assertThat(table.schemas().get(old.schemaId()).sameSchema(FleetTables.POSITIONS.initialSchema()))
                    .isTrue();
            // Time travel reads the old snapshot with the schema it was written with.
            assertThat(table.newScan().useSnapshot(old.snapshotId()).schema().findField(BATTERY_LEVEL))
                    .isNull();
            assertThat(plannedFiles(table)).isEqualTo(1L);
        }
    }

    @Test
    void ensuringAnUpToDateCatalogWritesNothing() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);
            Map<TableIdentifier, String> metadataFiles = metadataFiles(catalog);

            FleetTables.ensure(catalog);

            assertThat(metadataFiles(catalog)).isEqualTo(metadataFiles);
            assertThat(catalog.loadTable(POSITIONS).schemas()).hasSize(2);
            assertThat(catalog.loadTable(REJECTED_POSITIONS).schemas()).hasSize(1);
        }
    }

    @Test
    void ensuringKeepsChangesMadeToExistingTables() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);
            String location = catalog.loadTable(POSITIONS).location();
            catalog.loadTable(POSITIONS)
                    .updateProperties()
                    .set("owner", "fleet")
                    .commit();

            FleetTables.ensure(catalog);

            Table table = catalog.loadTable(POSITIONS);
            assertThat(table.location()).isEqualTo(location);
            assertThat(table.properties()).containsEntry("owner", "fleet");
        }
    }

    @Test
    void concurrentEnsureCallsAllSucceed() throws Exception {
        try (InMemoryCatalog catalog = catalog()) {
            ensureConcurrently(4, index -> FleetTables.ensure(catalog));

            assertThat(catalog.listTables(FleetTables.NAMESPACE))
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS);
            assertThat(catalog.loadTable(POSITIONS).schemas()).hasSize(2);
            assertThat(catalog.loadTable(POSITIONS).schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
        }
    }

    @Test
    void columnAddedByAnotherProcessBetweenLoadAndCommitIsNotAnError() throws IOException {
        try (InterleavingCatalog catalog = new InterleavingCatalog()) {
            catalog.initialize("test", Map.of());
            createReleasedPositionsTable(catalog);

            // The positions table this ensure loads is stale by the time it commits: a second ensure, like a second
            // catalog server starting, added the column in between. The first commit conflicts and must re-check.
            catalog.afterFirstLoad(() -> FleetTables.ensure(catalog));
            FleetTables.ensure(catalog);

            assertThat(catalog.interleaved()).isTrue();
            Table table = catalog.loadTable(POSITIONS);
            assertThat(table.schemas()).hasSize(2);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
        }
    }

    @Test
    void twoServersOnOneCatalogDatabaseStartTogether() throws Exception {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.of(
                CatalogServerConfig.DATA_DIRECTORY,
                dataDirectory.toString(),
                CatalogServerConfig.WAREHOUSE,
                "memory://" + UUID.randomUUID() + "/warehouse",
                CatalogServerConfig.IO_IMPLEMENTATION,
                InMemoryFileIO.class.getName())));
        List<JdbcCatalog> catalogs = new ArrayList<>();
        try {
            // Each catalog has its own connection to the SQLite file, as two server processes would.
            for (int server = 0; server < 2; server++) {
                catalogs.add(JdbcCatalogFactory.open(config));
            }

            ensureConcurrently(2, index -> FleetTables.ensure(catalogs.get(index)));

            Table table = catalogs.get(0).loadTable(POSITIONS);
            assertThat(table.schemas()).hasSize(2);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(catalogs.get(1).listTables(FleetTables.NAMESPACE))
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS);
        } finally {
            for (JdbcCatalog catalog : catalogs) {
                catalog.close();
            }
        }
    }

    @Test
    void columnOfAnotherTypeStopsTheStartWithWhatToDo() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            createReleasedPositionsTable(catalog)
                    .updateSchema()
                    .addColumn(BATTERY_LEVEL, Types.StringType.get())
                    .commit();

            assertThatThrownBy(() -> FleetTables.ensure(catalog))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Table fleet.positions has a column battery_level of type string where its definition"
                            + " adds one of type double: rename or drop that column (ALTER TABLE) so the catalog can"
                            + " add the defined one");
        }
    }

    /** A catalog that runs an action once, right after the first table load, to interleave another process. */
    private static final class InterleavingCatalog extends InMemoryCatalog {
        private Runnable pending;
        private boolean interleaved;

        void afterFirstLoad(Runnable action) {
            pending = action;
        }

        boolean interleaved() {
            return interleaved;
        }

        @Override
        public Table loadTable(TableIdentifier identifier) {
            Table table = super.loadTable(identifier);
            if (pending != null) {
                Runnable action = pending;
                pending = null;
                action.run();
                interleaved = true;
            }
            return table;
        }
    }

    private static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("test", Map.of());
        return catalog;
    }

    /** fleet.positions as the catalog created it before battery_level was defined. */
    private static <C extends Catalog & SupportsNamespaces> Table createReleasedPositionsTable(C catalog) {
        catalog.createNamespace(FleetTables.NAMESPACE);
        return catalog.buildTable(POSITIONS, FleetTables.POSITIONS.initialSchema())
                .withPartitionSpec(FleetTables.POSITIONS.spec())
                .withSortOrder(FleetTables.POSITIONS.sortOrder())
                .withProperties(FleetTables.POSITIONS.properties())
                .create();
    }

    private static DataFile dataFile(Table table) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/positions-" + UUID.randomUUID() + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(1024)
                .withRecordCount(10)
                .withPartitionPath("event_time_day=2025-06-01/vehicle_id_bucket=3")
                .build();
    }

    private static void ensureConcurrently(int processes, Consumer<Integer> ensure) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(processes);
        try {
            CyclicBarrier start = new CyclicBarrier(processes);
            List<CompletableFuture<Void>> runs = new ArrayList<>();
            for (int process = 0; process < processes; process++) {
                int index = process;
                runs.add(CompletableFuture.runAsync(
                        () -> {
                            await(start);
                            ensure.accept(index);
                        },
                        executor));
            }
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
        } finally {
            executor.shutdownNow();
        }
    }

    private static long plannedFiles(Table table) throws IOException {
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            return StreamSupport.stream(tasks.spliterator(), false).count();
        }
    }

    private static Map<TableIdentifier, String> metadataFiles(Catalog catalog) {
        Map<TableIdentifier, String> files = new LinkedHashMap<>();
        for (TableDefinition definition : FleetTables.ALL) {
            Table table = catalog.loadTable(definition.identifier());
            files.put(
                    definition.identifier(),
                    ((BaseTable) table).operations().current().metadataFileLocation());
        }
        return files;
    }

    private static int formatVersion(Table table) {
        return ((BaseTable) table).operations().current().formatVersion();
    }

    /** The format version is table metadata, not a property the table reports back. */
    private static Map<String, String> withoutFormatVersion(Map<String, String> properties) {
        Map<String, String> remaining = new LinkedHashMap<>(properties);
        remaining.remove(TableProperties.FORMAT_VERSION);
        return remaining;
    }

    private static List<String> rejectedColumnConstants() {
        return Arrays.stream(RejectedColumns.class.getFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == String.class)
                .map(FleetTablesTest::constantValue)
                .toList();
    }

    private static String constantValue(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field, e);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Processes did not start together", e);
        }
    }

    private static void assertLineage(String name, Type type) {
        Types.NestedField column = FleetTables.POSITIONS.initialSchema().findField(name);
        assertThat(column).as(name).isNotNull();
        assertThat(column.type()).as(name).isEqualTo(type);
        assertThat(column.isRequired()).as(name).isTrue();
        assertThat(column.doc()).as(name).isNotBlank();
    }

    private static void assertPartitionField(
            TableDefinition definition, PartitionField field, String source, String transform) {
        assertThat(definition.initialSchema().findColumnName(field.sourceId())).isEqualTo(source);
        assertThat(field.transform()).hasToString(transform);
    }

    private static void assertSortField(TableDefinition definition, SortField field, String source) {
        assertThat(definition.initialSchema().findColumnName(field.sourceId())).isEqualTo(source);
        assertThat(field.direction()).isEqualTo(SortDirection.ASC);
        assertThat(field.nullOrder()).isEqualTo(NullOrder.NULLS_FIRST);
        assertThat(field.transform().isIdentity()).isTrue();
    }
}
