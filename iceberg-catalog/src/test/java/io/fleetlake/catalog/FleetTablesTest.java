package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.catalog.TableDefinition.AddedColumn;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.VehicleMinuteColumns;
import io.fleetlake.model.codec.PositionField;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
import java.util.stream.IntStream;
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

    /** The enrichment columns of fleet.positions with their types, in the order they are added. */
    private static final Map<String, Type> ENRICHMENT_COLUMN_TYPES = orderedMap(List.of(
            Map.entry(EnrichmentColumns.ROUTE_ID, Types.StringType.get()),
            Map.entry(EnrichmentColumns.NEXT_STOP_ID, Types.StringType.get()),
            Map.entry(EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M, Types.DoubleType.get()),
            Map.entry(EnrichmentColumns.DISTANCE_TO_NEXT_STOP_METHOD, Types.StringType.get()),
            Map.entry(EnrichmentColumns.DISTANCE_FROM_ROUTE_M, Types.DoubleType.get()),
            Map.entry(EnrichmentColumns.STATUS, Types.StringType.get()),
            Map.entry(EnrichmentColumns.ENRICHMENT_STALE, Types.BooleanType.get())));

    /** The columns of fleet.vehicle_minutes with their types, in column order. */
    private static final Map<String, Type> VEHICLE_MINUTE_COLUMN_TYPES = orderedMap(List.of(
            Map.entry(VehicleMinuteColumns.VEHICLE_ID, Types.StringType.get()),
            Map.entry(VehicleMinuteColumns.WINDOW_START, Types.TimestampType.withZone()),
            Map.entry(VehicleMinuteColumns.WINDOW_END, Types.TimestampType.withZone()),
            Map.entry(VehicleMinuteColumns.POSITIONS, Types.IntegerType.get()),
            Map.entry(VehicleMinuteColumns.DISTANCE_M, Types.DoubleType.get()),
            Map.entry(VehicleMinuteColumns.AVG_SPEED_KMH, Types.DoubleType.get()),
            Map.entry(VehicleMinuteColumns.MAX_SPEED_KMH, Types.DoubleType.get()),
            Map.entry(VehicleMinuteColumns.SECONDS_STOPPED, Types.DoubleType.get()),
            Map.entry(VehicleMinuteColumns.COMPUTED_AT, Types.TimestampType.withZone())));

    private static final TableIdentifier POSITIONS = FleetTables.POSITIONS.identifier();
    private static final TableIdentifier REJECTED_POSITIONS = FleetTables.REJECTED_POSITIONS.identifier();
    private static final TableIdentifier VEHICLE_MINUTES = FleetTables.VEHICLE_MINUTES.identifier();
    private static final TableIdentifier POSITION_PLACES = FleetTables.POSITION_PLACES.identifier();
    private static final String BATTERY_LEVEL = PositionField.BATTERY_LEVEL.fieldName();

    /** battery_level, then every enrichment column: one schema each after the initial schema 0. */
    private static final int POSITIONS_ADDED_COLUMNS = 1 + ENRICHMENT_COLUMN_TYPES.size();

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
        assertThat(latest.columns()).hasSize(PositionField.values().length + 3 + ENRICHMENT_COLUMN_TYPES.size());
    }

    @Test
    void latestPositionsSchemaAppendsTheAddedColumnsInOrderWithConsecutiveIds() {
        List<String> expected = new ArrayList<>(POSITIONS_V1_COLUMNS);
        expected.add(BATTERY_LEVEL);
        expected.addAll(ENRICHMENT_COLUMN_TYPES.keySet());
        Schema latest = FleetTables.POSITIONS.latestSchema();

        assertThat(FleetTables.POSITIONS.addedColumns())
                .extracting(AddedColumn::name)
                .containsExactlyElementsOf(expected.subList(POSITIONS_V1_COLUMNS.size(), expected.size()));
        assertThat(latest.columns()).extracting(Types.NestedField::name).containsExactlyElementsOf(expected);
        assertThat(latest.columns())
                .extracting(Types.NestedField::fieldId)
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(1, expected.size()).boxed().toList());
        assertThat(latest.identifierFieldIds()).isEmpty();
    }

    @Test
    void everyEnrichmentColumnIsAddedAfterBatteryLevelAsAnOptionalColumnOfTheRightType() {
        Schema latest = FleetTables.POSITIONS.latestSchema();
        int fieldId = latest.findField(BATTERY_LEVEL).fieldId();

        assertThat(ENRICHMENT_COLUMN_TYPES.keySet())
                .containsExactlyInAnyOrderElementsOf(stringConstants(EnrichmentColumns.class));
        for (Map.Entry<String, Type> expected : ENRICHMENT_COLUMN_TYPES.entrySet()) {
            fieldId++;
            Types.NestedField column = latest.findField(expected.getKey());
            assertThat(column).as(expected.getKey()).isNotNull();
            assertThat(column.fieldId()).as(expected.getKey()).isEqualTo(fieldId);
            assertThat(column.type()).as(expected.getKey()).isEqualTo(expected.getValue());
            assertThat(column.isOptional()).as(expected.getKey()).isTrue();
            assertThat(column.doc()).as(expected.getKey()).isNotBlank();
        }
        assertThat(fieldId).isEqualTo(20).isEqualTo(latest.highestFieldId());
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
    void batteryLevelIsAddedFirstAsOptionalDoubleWithTheNextFieldId() {
        assertThat(FleetTables.POSITIONS.addedColumns().get(0).name()).isEqualTo(BATTERY_LEVEL);
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

        assertThat(types.keySet()).containsExactlyInAnyOrderElementsOf(stringConstants(RejectedColumns.class));
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
    void vehicleMinutesColumnsAreAllRequired() {
        Schema schema = FleetTables.VEHICLE_MINUTES.latestSchema();

        assertThat(VEHICLE_MINUTE_COLUMN_TYPES.keySet())
                .containsExactlyInAnyOrderElementsOf(stringConstants(VehicleMinuteColumns.class));
        assertThat(schema.columns())
                .extracting(Types.NestedField::name)
                .containsExactlyElementsOf(VEHICLE_MINUTE_COLUMN_TYPES.keySet());
        int fieldId = 0;
        for (Types.NestedField column : schema.columns()) {
            fieldId++;
            assertThat(column.fieldId()).as(column.name()).isEqualTo(fieldId);
            assertThat(column.type()).as(column.name()).isEqualTo(VEHICLE_MINUTE_COLUMN_TYPES.get(column.name()));
            assertThat(column.isRequired()).as(column.name()).isTrue();
            assertThat(column.doc()).as(column.name()).isNotBlank();
        }
        assertThat(FleetTables.VEHICLE_MINUTES.addedColumns()).isEmpty();
    }

    @Test
    void vehicleMinutesRowsAreIdentifiedByVehicleAndWindowStart() {
        assertThat(FleetTables.VEHICLE_MINUTES.initialSchema().identifierFieldNames())
                .containsExactlyInAnyOrder(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
        assertThat(FleetTables.VEHICLE_MINUTES.latestSchema().identifierFieldNames())
                .containsExactlyInAnyOrder(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
    }

    @Test
    void vehicleMinutesArePartitionedByDayOfWindowStartAndSortedByVehicleThenWindowStart() {
        List<PartitionField> partitionFields =
                FleetTables.VEHICLE_MINUTES.spec().fields();
        List<SortField> sortFields = FleetTables.VEHICLE_MINUTES.sortOrder().fields();

        assertThat(partitionFields).hasSize(1);
        assertPartitionField(
                FleetTables.VEHICLE_MINUTES, partitionFields.get(0), VehicleMinuteColumns.WINDOW_START, "day");
        // An upsert's equality delete must find the row it replaces in the partition it writes to, so Flink requires
        // every partition source column to be an identifier field.
        assertThat(FleetTables.VEHICLE_MINUTES.initialSchema().identifierFieldIds())
                .contains(partitionFields.get(0).sourceId());
        assertThat(sortFields).hasSize(2);
        assertSortField(FleetTables.VEHICLE_MINUTES, sortFields.get(0), VehicleMinuteColumns.VEHICLE_ID);
        assertSortField(FleetTables.VEHICLE_MINUTES, sortFields.get(1), VehicleMinuteColumns.WINDOW_START);
    }

    @Test
    void positionPlacesAreKeyedLikePositionsAndPartitionedByDay() {
        TableDefinition places = FleetTables.POSITION_PLACES;
        Schema schema = places.latestSchema();
        assertThat(schema.columns())
                .extracting(Types.NestedField::name)
                .containsExactly(
                        PlaceColumns.VEHICLE_ID,
                        PlaceColumns.EVENT_TIME,
                        PlaceColumns.LATITUDE,
                        PlaceColumns.LONGITUDE,
                        PlaceColumns.PLACE_NAME,
                        PlaceColumns.MUNICIPALITY,
                        PlaceColumns.PROVINCE,
                        PlaceColumns.REGION,
                        PlaceColumns.COUNTRY_CODE,
                        PlaceColumns.COUNTRY,
                        PlaceColumns.DISTANCE_KM,
                        PlaceColumns.GAZETTEER,
                        PlaceColumns.GEOCODED_AT);
        assertThat(schema.identifierFieldNames())
                .containsExactlyInAnyOrder(PlaceColumns.VEHICLE_ID, PlaceColumns.EVENT_TIME);
        // The key has the types of the positions' key, or the view's join would compare different types.
        for (String key : List.of(PlaceColumns.VEHICLE_ID, PlaceColumns.EVENT_TIME)) {
            assertThat(schema.findType(key))
                    .isEqualTo(FleetTables.POSITIONS.latestSchema().findType(key));
        }
        assertThat(schema.findField(PlaceColumns.PLACE_NAME).isOptional())
                .as("null at sea")
                .isTrue();
        assertThat(places.spec().fields())
                .extracting(field -> schema.findColumnName(field.sourceId()) + ":" + field.transform())
                .containsExactly(PlaceColumns.EVENT_TIME + ":day");
        assertThat(places.sortOrder().fields())
                .extracting(field -> schema.findColumnName(field.sourceId()))
                .containsExactly(PlaceColumns.VEHICLE_ID, PlaceColumns.EVENT_TIME);
        assertThat(places.properties())
                .containsAllEntriesOf(FleetTables.TABLE_PROPERTIES)
                .containsEntry(TableProperties.MERGE_MODE, "merge-on-read")
                .containsEntry(TableProperties.DELETE_MODE, "merge-on-read");
    }

    @Test
    void everyTableIsFormatVersionTwoParquetWithMetadataCleanup() {
        assertThat(FleetTables.ALL)
                .extracting(TableDefinition::identifier)
                .containsExactly(POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, POSITION_PLACES);
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
    void freshCatalogGetsEveryTableAndTheSchemaHistory() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);

            assertThat(catalog.listTables(FleetTables.NAMESPACE))
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, POSITION_PLACES);
            Table positions = catalog.loadTable(POSITIONS);
            assertThat(formatVersion(positions)).isEqualTo(2);
            assertPositionsSchemaHistory(positions);
            assertThat(positions.schemas().get(0).sameSchema(FleetTables.POSITIONS.initialSchema()))
                    .isTrue();
            assertThat(positions.schemas().get(0).findField(BATTERY_LEVEL)).isNull();
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

            Table minutes = catalog.loadTable(VEHICLE_MINUTES);
            assertThat(formatVersion(minutes)).isEqualTo(2);
            assertThat(minutes.schemas()).containsOnlyKeys(0);
            assertThat(minutes.schema().sameSchema(FleetTables.VEHICLE_MINUTES.latestSchema()))
                    .isTrue();
            assertThat(minutes.schema().identifierFieldNames())
                    .containsExactlyInAnyOrder(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
            assertThat(minutes.spec().fields())
                    .extracting(field -> minutes.schema().findColumnName(field.sourceId()) + ":" + field.transform())
                    .containsExactly(VehicleMinuteColumns.WINDOW_START + ":day");
            assertThat(minutes.sortOrder().fields())
                    .extracting(field -> minutes.schema().findColumnName(field.sourceId()))
                    .containsExactly(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);
            assertThat(minutes.properties()).containsAllEntriesOf(withoutFormatVersion(FleetTables.TABLE_PROPERTIES));
        }
    }

    @Test
    void streamingTablesCarryTheirWriteSettingsAsTableProperties() {
        for (TableDefinition definition :
                List.of(FleetTables.POSITIONS, FleetTables.REJECTED_POSITIONS, FleetTables.VEHICLE_MINUTES)) {
            assertThat(definition.properties())
                    .as(definition.identifier().toString())
                    .containsAllEntriesOf(FleetTables.STREAMING_WRITE_PROPERTIES)
                    .containsEntry(TableProperties.PARQUET_PAGE_SIZE_BYTES, "65536")
                    .containsEntry(FleetTables.PARQUET_DICTIONARY_ENABLED, "false");
        }
        assertThat(FleetTables.POSITION_PLACES.properties())
                .as("written by Spark in large batches")
                .doesNotContainKey(TableProperties.PARQUET_PAGE_SIZE_BYTES);
    }

    @Test
    void tableOfAnEarlierReleaseGainsTheWriteSettingsItLacksAndKeepsTheOperatorsValues() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            Table positions = createReleasedPositionsTable(catalog);
            Map<String, String> released = new LinkedHashMap<>(FleetTables.TABLE_PROPERTIES);
            released.put(TableProperties.PARQUET_COMPRESSION_LEVEL, "9");
            catalog.buildTable(REJECTED_POSITIONS, FleetTables.REJECTED_POSITIONS.initialSchema())
                    .withPartitionSpec(FleetTables.REJECTED_POSITIONS.spec())
                    .withProperties(released)
                    .create();
            Map<String, String> operatorSet = Map.of(
                    TableProperties.PARQUET_PAGE_SIZE_BYTES, "131072", TableProperties.PARQUET_COMPRESSION, "snappy");
            positions
                    .updateProperties()
                    .set(TableProperties.PARQUET_PAGE_SIZE_BYTES, "131072")
                    .set(TableProperties.PARQUET_COMPRESSION, "snappy")
                    .commit();

            FleetTables.ensure(catalog);

            assertThat(catalog.loadTable(REJECTED_POSITIONS).properties())
                    .containsAllEntriesOf(FleetTables.STREAMING_WRITE_PROPERTIES)
                    .containsEntry(TableProperties.PARQUET_COMPRESSION_LEVEL, "9");
            assertThat(catalog.loadTable(POSITIONS).properties()).containsAllEntriesOf(operatorSet);
            Map<TableIdentifier, String> before = metadataFiles(catalog);
            FleetTables.ensure(catalog);
            assertThat(metadataFiles(catalog)).as("nothing left to set").isEqualTo(before);
        }
    }

    @Test
    void tableCreatedBeforeTheEvolutionGainsTheColumnsAndKeepsItsHistory() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            Table released = createReleasedPositionsTable(catalog);
            released.newAppend().appendFile(dataFile(released)).commit();
            Snapshot before = released.currentSnapshot();

            FleetTables.ensure(catalog);

            Table table = catalog.loadTable(POSITIONS);
            assertPositionsSchemaHistory(table);
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
    void tableOfThePreviousReleaseGainsTheEnrichmentColumnsAndItsSnapshotsKeepTheirSchemas() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            // fleet.positions as the previous release left it: created with the initial schema, written, given
            // battery_level (schema 1), written again.
            Table released = createReleasedPositionsTable(catalog);
            released.newAppend().appendFile(dataFile(released)).commit();
            long beforeBatteryLevel = released.currentSnapshot().snapshotId();
            AddedColumn batteryLevel = FleetTables.POSITIONS.addedColumns().get(0);
            released.updateSchema()
                    .addColumn(batteryLevel.name(), batteryLevel.type(), batteryLevel.doc())
                    .commit();
            released.newAppend().appendFile(dataFile(released)).commit();
            long withBatteryLevel = released.currentSnapshot().snapshotId();
            assertThat(released.schema().schemaId()).isEqualTo(1);
            assertThat(released.schema().sameSchema(positionsSchemaWith(1))).isTrue();

            FleetTables.ensure(catalog);

            Table table = catalog.loadTable(POSITIONS);
            assertPositionsSchemaHistory(table);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(table.snapshots()).hasSize(2);
            assertThat(table.snapshot(beforeBatteryLevel).schemaId()).isEqualTo(0);
            assertThat(table.snapshot(withBatteryLevel).schemaId()).isEqualTo(1);
            // Time travel reads each old snapshot with the columns it was written with.
            Schema readAtBatteryLevel =
                    table.newScan().useSnapshot(withBatteryLevel).schema();
            assertThat(readAtBatteryLevel.findField(BATTERY_LEVEL)).isNotNull();
            for (String enrichment : ENRICHMENT_COLUMN_TYPES.keySet()) {
                assertThat(readAtBatteryLevel.findField(enrichment))
                        .as(enrichment)
                        .isNull();
            }
            assertThat(plannedFiles(table)).isEqualTo(2L);
        }
    }

    @Test
    void ensuringAnUpToDateCatalogWritesNothing() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.ensure(catalog);
            Map<TableIdentifier, String> metadataFiles = metadataFiles(catalog);

            FleetTables.ensure(catalog);

            assertThat(metadataFiles(catalog)).hasSize(4).isEqualTo(metadataFiles);
            assertThat(catalog.loadTable(POSITIONS).schemas()).hasSize(POSITIONS_ADDED_COLUMNS + 1);
            assertThat(catalog.loadTable(REJECTED_POSITIONS).schemas()).hasSize(1);
            assertThat(catalog.loadTable(VEHICLE_MINUTES).schemas()).hasSize(1);
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
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, POSITION_PLACES);
            assertPositionsSchemaHistory(catalog.loadTable(POSITIONS));
            assertThat(catalog.loadTable(POSITIONS).schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(catalog.loadTable(VEHICLE_MINUTES).schemas()).hasSize(1);
            assertThat(catalog.loadTable(VEHICLE_MINUTES)
                            .schema()
                            .sameSchema(FleetTables.VEHICLE_MINUTES.latestSchema()))
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
            assertPositionsSchemaHistory(table);
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
            assertPositionsSchemaHistory(table);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS.latestSchema()))
                    .isTrue();
            assertThat(catalogs.get(1).listTables(FleetTables.NAMESPACE))
                    .containsExactlyInAnyOrder(POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, POSITION_PLACES);
            assertThat(catalogs.get(1)
                            .loadTable(VEHICLE_MINUTES)
                            .schema()
                            .sameSchema(FleetTables.VEHICLE_MINUTES.latestSchema()))
                    .isTrue();
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

    /**
     * Schema 0 is the initial schema and schema n adds the n-th added column, ending at the latest schema: the history
     * every deployment gets, whatever release it starts from.
     */
    private static void assertPositionsSchemaHistory(Table table) {
        assertThat(FleetTables.POSITIONS.addedColumns()).hasSize(POSITIONS_ADDED_COLUMNS);
        assertThat(table.schemas())
                .containsOnlyKeys(IntStream.rangeClosed(0, POSITIONS_ADDED_COLUMNS)
                        .boxed()
                        .toList());
        for (int schemaId = 0; schemaId <= POSITIONS_ADDED_COLUMNS; schemaId++) {
            Schema schema = table.schemas().get(schemaId);
            assertThat(schema.sameSchema(positionsSchemaWith(schemaId)))
                    .as("schema %d: %s", schemaId, schema)
                    .isTrue();
        }
        assertThat(table.schema().schemaId()).isEqualTo(POSITIONS_ADDED_COLUMNS);
    }

    /** The schema of fleet.positions after its first {@code addedColumns} added columns. */
    private static Schema positionsSchemaWith(int addedColumns) {
        TableDefinition positions = FleetTables.POSITIONS;
        return new TableDefinition(
                        positions.identifier(),
                        positions.initialSchema(),
                        positions.spec(),
                        positions.sortOrder(),
                        positions.properties(),
                        positions.addedColumns().subList(0, addedColumns))
                .latestSchema();
    }

    private static Map<String, Type> orderedMap(List<Map.Entry<String, Type>> columns) {
        Map<String, Type> map = new LinkedHashMap<>();
        columns.forEach(column -> map.put(column.getKey(), column.getValue()));
        return Collections.unmodifiableMap(map);
    }

    private static List<String> stringConstants(Class<?> constants) {
        return Arrays.stream(constants.getFields())
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
