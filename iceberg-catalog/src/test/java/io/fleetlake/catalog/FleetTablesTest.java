package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.codec.PositionField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

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
            PositionField.SATELLITES, Types.IntegerType.get());

    private static final List<PositionField> OPTIONAL_MEASUREMENTS =
            List.of(PositionField.ALTITUDE_M, PositionField.ACCURACY_M, PositionField.SATELLITES);

    @Test
    void everyPositionFieldHasAColumnOfTheRightType() {
        assertThat(POSITION_COLUMN_TYPES).containsOnlyKeys(PositionField.values());
        for (PositionField field : PositionField.values()) {
            Types.NestedField column = FleetTables.POSITIONS_SCHEMA.findField(field.fieldName());
            assertThat(column).as(field.fieldName()).isNotNull();
            assertThat(column.type()).as(field.fieldName()).isEqualTo(POSITION_COLUMN_TYPES.get(field));
            assertThat(column.isOptional()).as(field.fieldName()).isEqualTo(OPTIONAL_MEASUREMENTS.contains(field));
            assertThat(column.doc()).as(field.fieldName()).isNotBlank();
        }
    }

    @Test
    void lineageColumnsAreRequired() {
        assertLineage(LineageColumns.SOURCE_PARTITION, Types.IntegerType.get());
        assertLineage(LineageColumns.SOURCE_OFFSET, Types.LongType.get());
        assertLineage(LineageColumns.INGEST_TIME, Types.TimestampType.withZone());
        assertThat(FleetTables.POSITIONS_SCHEMA.columns()).hasSize(PositionField.values().length + 3);
    }

    @Test
    void partitionedByDayOfEventTimeAndVehicleBucket() {
        List<PartitionField> fields = FleetTables.POSITIONS_PARTITION_SPEC.fields();

        assertThat(fields).hasSize(2);
        assertPartitionField(fields.get(0), PositionField.EVENT_TIME, "day");
        assertPartitionField(fields.get(1), PositionField.VEHICLE_ID, "bucket[16]");
    }

    @Test
    void sortedByVehicleThenEventTime() {
        List<SortField> fields = FleetTables.POSITIONS_SORT_ORDER.fields();

        assertThat(fields).hasSize(2);
        assertSortField(fields.get(0), PositionField.VEHICLE_ID);
        assertSortField(fields.get(1), PositionField.EVENT_TIME);
    }

    @Test
    void createsFormatVersionTwoParquetTable() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.createMissing(catalog);

            Table table = catalog.loadTable(FleetTables.POSITIONS);
            assertThat(table.name()).endsWith("fleet.positions");
            assertThat(((BaseTable) table).operations().current().formatVersion())
                    .isEqualTo(2);
            assertThat(table.schema().sameSchema(FleetTables.POSITIONS_SCHEMA)).isTrue();
            assertThat(table.spec().fields()).hasSize(2);
            assertThat(table.sortOrder().fields()).hasSize(2);
            assertThat(table.properties())
                    .containsEntry(TableProperties.DEFAULT_FILE_FORMAT, "parquet")
                    .containsEntry(TableProperties.PARQUET_COMPRESSION, "zstd")
                    .containsEntry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true")
                    .containsEntry(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "100");
        }
    }

    @Test
    void creatingAgainKeepsTheExistingTable() throws IOException {
        try (InMemoryCatalog catalog = catalog()) {
            FleetTables.createMissing(catalog);
            String location = catalog.loadTable(FleetTables.POSITIONS).location();
            catalog.loadTable(FleetTables.POSITIONS)
                    .updateProperties()
                    .set("owner", "fleet")
                    .commit();

            FleetTables.createMissing(catalog);

            Table table = catalog.loadTable(FleetTables.POSITIONS);
            assertThat(table.location()).isEqualTo(location);
            assertThat(table.properties()).containsEntry("owner", "fleet");
        }
    }

    @Test
    void concurrentCreatorsBothSucceed() throws Exception {
        int creators = 4;
        ExecutorService executor = Executors.newFixedThreadPool(creators);
        try (InMemoryCatalog catalog = catalog()) {
            CyclicBarrier start = new CyclicBarrier(creators);
            List<CompletableFuture<Void>> runs = new ArrayList<>();
            for (int creator = 0; creator < creators; creator++) {
                runs.add(CompletableFuture.runAsync(
                        () -> {
                            await(start);
                            FleetTables.createMissing(catalog);
                        },
                        executor));
            }

            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(catalog.listTables(FleetTables.NAMESPACE)).containsExactly(FleetTables.POSITIONS);
        } finally {
            executor.shutdownNow();
        }
    }

    private static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("test", Map.of());
        return catalog;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Creators did not start together", e);
        }
    }

    private static void assertLineage(String name, Type type) {
        Types.NestedField column = FleetTables.POSITIONS_SCHEMA.findField(name);
        assertThat(column).as(name).isNotNull();
        assertThat(column.type()).as(name).isEqualTo(type);
        assertThat(column.isRequired()).as(name).isTrue();
        assertThat(column.doc()).as(name).isNotBlank();
    }

    private static void assertPartitionField(PartitionField field, PositionField source, String transform) {
        assertThat(FleetTables.POSITIONS_SCHEMA.findColumnName(field.sourceId()))
                .isEqualTo(source.fieldName());
        assertThat(field.transform()).hasToString(transform);
    }

    private static void assertSortField(SortField field, PositionField source) {
        assertThat(FleetTables.POSITIONS_SCHEMA.findColumnName(field.sourceId()))
                .isEqualTo(source.fieldName());
        assertThat(field.direction()).isEqualTo(SortDirection.ASC);
        assertThat(field.nullOrder()).isEqualTo(NullOrder.NULLS_FIRST);
        assertThat(field.transform().isIdentity()).isTrue();
    }
}
