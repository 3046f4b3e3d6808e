package io.fleetlake.flink.sinks;

import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.VehicleMinuteColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;

/** The fleet's tables as the catalog defines them, for tests that write them through a file-system catalog. */
public final class FleetTestTables {
    /** The bootstrap's columns, in a different order than the pipeline's, battery level added last. */
    public static final Schema POSITIONS = new Schema(
            NestedField.required(1, "vehicle_id", Types.StringType.get()),
            NestedField.required(2, "event_time", Types.TimestampType.withZone()),
            NestedField.required(3, "source_partition", Types.IntegerType.get()),
            NestedField.required(4, "source_offset", Types.LongType.get()),
            NestedField.required(5, "ingest_time", Types.TimestampType.withZone()),
            NestedField.required(6, "latitude", Types.DoubleType.get()),
            NestedField.required(7, "longitude", Types.DoubleType.get()),
            NestedField.required(8, "speed_kmh", Types.DoubleType.get()),
            NestedField.required(9, "heading_deg", Types.DoubleType.get()),
            NestedField.optional(10, "altitude_m", Types.DoubleType.get()),
            NestedField.optional(11, "accuracy_m", Types.DoubleType.get()),
            NestedField.optional(12, "satellites", Types.IntegerType.get()),
            NestedField.optional(13, "battery_level", Types.DoubleType.get()),
            NestedField.optional(14, "route_id", Types.StringType.get()),
            NestedField.optional(15, "next_stop_id", Types.StringType.get()),
            NestedField.optional(16, "distance_to_next_stop_m", Types.DoubleType.get()),
            NestedField.optional(17, "distance_to_next_stop_method", Types.StringType.get()),
            NestedField.optional(18, "distance_from_route_m", Types.DoubleType.get()),
            NestedField.optional(19, "status", Types.StringType.get()),
            NestedField.optional(20, "enrichment_stale", Types.BooleanType.get()));

    /** The catalog's definition of fleet.vehicle_minutes: identified by vehicle and window start. */
    public static final Schema VEHICLE_MINUTES = new Schema(
            List.of(
                    NestedField.required(1, VehicleMinuteColumns.VEHICLE_ID, Types.StringType.get()),
                    NestedField.required(2, VehicleMinuteColumns.WINDOW_START, Types.TimestampType.withZone()),
                    NestedField.required(3, VehicleMinuteColumns.WINDOW_END, Types.TimestampType.withZone()),
                    NestedField.required(4, VehicleMinuteColumns.POSITIONS, Types.IntegerType.get()),
                    NestedField.required(5, VehicleMinuteColumns.DISTANCE_M, Types.DoubleType.get()),
                    NestedField.required(6, VehicleMinuteColumns.AVG_SPEED_KMH, Types.DoubleType.get()),
                    NestedField.required(7, VehicleMinuteColumns.MAX_SPEED_KMH, Types.DoubleType.get()),
                    NestedField.required(8, VehicleMinuteColumns.SECONDS_STOPPED, Types.DoubleType.get()),
                    NestedField.required(9, VehicleMinuteColumns.COMPUTED_AT, Types.TimestampType.withZone())),
            Set.of(1, 2));

    /** The catalog's definition of fleet.rejected_positions. */
    public static final Schema REJECTED = new Schema(
            NestedField.required(1, RejectedColumns.REJECTED_AT, Types.TimestampType.withZone()),
            NestedField.required(2, RejectedColumns.REASON, Types.StringType.get()),
            NestedField.required(3, RejectedColumns.DETAIL, Types.StringType.get()),
            NestedField.required(4, RejectedColumns.SOURCE_TOPIC, Types.StringType.get()),
            NestedField.required(5, RejectedColumns.SOURCE_PARTITION, Types.IntegerType.get()),
            NestedField.required(6, RejectedColumns.SOURCE_OFFSET, Types.LongType.get()),
            NestedField.required(7, RejectedColumns.INGEST_TIME, Types.TimestampType.withZone()),
            NestedField.optional(8, RejectedColumns.VEHICLE_ID, Types.StringType.get()),
            NestedField.optional(9, RejectedColumns.EVENT_TIME, Types.TimestampType.withZone()),
            NestedField.required(10, RejectedColumns.PAYLOAD, Types.BinaryType.get()),
            NestedField.required(11, RejectedColumns.PAYLOAD_SIZE, Types.IntegerType.get()));

    private FleetTestTables() {}

    /** Creates {@code fleet.positions}, {@code fleet.rejected_positions} and {@code fleet.vehicle_minutes}. */
    public static void createAll(CatalogLoader catalogLoader) {
        try (HadoopCatalog catalog = (HadoopCatalog) catalogLoader.loadCatalog()) {
            catalog.createNamespace(Namespace.of("fleet"));
            catalog.createTable(
                    IcebergTableSink.POSITIONS,
                    POSITIONS,
                    PartitionSpec.builderFor(POSITIONS)
                            .day("event_time")
                            .bucket("vehicle_id", 16)
                            .build());
            catalog.createTable(IcebergTableSink.REJECTED_POSITIONS, REJECTED, PartitionSpec.unpartitioned());
            catalog.createTable(IcebergTableSink.VEHICLE_MINUTES, VEHICLE_MINUTES, PartitionSpec.unpartitioned());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the test catalog", e);
        }
    }
}
