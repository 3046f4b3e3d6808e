package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PositionField;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Definitions of the fleet's Iceberg tables, and their creation when absent.
 *
 * <p>{@code fleet.positions} holds every accepted position with its lineage: the raw topic partition and offset the
 * record was read from and the Kafka record timestamp, so any row can be traced back to its source record.
 */
public final class FleetTables {
    public static final Namespace NAMESPACE = Namespace.of(Tables.NAMESPACE);
    public static final TableIdentifier POSITIONS = TableIdentifier.of(NAMESPACE, Tables.POSITIONS);

    public static final int FORMAT_VERSION = 2;
    public static final int VEHICLE_BUCKETS = 16;

    /**
     * Metadata files kept besides the current one. Flink commits once per checkpoint, so a 10 s checkpoint writes
     * 8,640 metadata files a day, each a full copy of the snapshot list; without cleanup they pile up in the bucket.
     * Snapshots (time travel) are not affected: they live in the current metadata until snapshot expiry removes them.
     * 100 previous files (about 17 minutes of commits) still allow rolling the table pointer back by hand.
     */
    public static final int METADATA_PREVIOUS_VERSIONS = 100;

    public static final Schema POSITIONS_SCHEMA = new Schema(
            required(1, PositionField.VEHICLE_ID.fieldName(), Types.StringType.get(), "Fleet-wide vehicle identifier"),
            required(
                    2,
                    PositionField.EVENT_TIME.fieldName(),
                    Types.TimestampType.withZone(),
                    "When the device took the fix"),
            required(3, PositionField.LATITUDE.fieldName(), Types.DoubleType.get(), "WGS84 latitude in degrees"),
            required(4, PositionField.LONGITUDE.fieldName(), Types.DoubleType.get(), "WGS84 longitude in degrees"),
            required(5, PositionField.SPEED_KMH.fieldName(), Types.DoubleType.get(), "Ground speed in km/h"),
            required(
                    6,
                    PositionField.HEADING_DEG.fieldName(),
                    Types.DoubleType.get(),
                    "Course over ground in degrees clockwise from north"),
            optional(
                    7,
                    PositionField.ALTITUDE_M.fieldName(),
                    Types.DoubleType.get(),
                    "Metres above sea level; null when the device did not report it"),
            optional(
                    8,
                    PositionField.ACCURACY_M.fieldName(),
                    Types.DoubleType.get(),
                    "Estimated horizontal accuracy in metres; null when the device did not report it"),
            optional(
                    9,
                    PositionField.SATELLITES.fieldName(),
                    Types.IntegerType.get(),
                    "Satellites used in the fix; null when the device did not report it"),
            required(
                    10,
                    LineageColumns.SOURCE_PARTITION,
                    Types.IntegerType.get(),
                    "Partition of the raw positions topic the record was read from"),
            required(11, LineageColumns.SOURCE_OFFSET, Types.LongType.get(), "Offset of the record in that partition"),
            required(
                    12,
                    LineageColumns.INGEST_TIME,
                    Types.TimestampType.withZone(),
                    "Kafka record timestamp: when the record was appended to the raw positions topic"));

    public static final PartitionSpec POSITIONS_PARTITION_SPEC = PartitionSpec.builderFor(POSITIONS_SCHEMA)
            .day(PositionField.EVENT_TIME.fieldName())
            .bucket(PositionField.VEHICLE_ID.fieldName(), VEHICLE_BUCKETS)
            .build();

    public static final SortOrder POSITIONS_SORT_ORDER = SortOrder.builderFor(POSITIONS_SCHEMA)
            .asc(PositionField.VEHICLE_ID.fieldName())
            .asc(PositionField.EVENT_TIME.fieldName())
            .build();

    public static final Map<String, String> POSITIONS_PROPERTIES = Map.of(
            TableProperties.FORMAT_VERSION, String.valueOf(FORMAT_VERSION),
            TableProperties.DEFAULT_FILE_FORMAT, "parquet",
            TableProperties.PARQUET_COMPRESSION, "zstd",
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true",
            TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, String.valueOf(METADATA_PREVIOUS_VERSIONS));

    private static final Logger LOG = LoggerFactory.getLogger(FleetTables.class);

    private FleetTables() {}

    /**
     * Creates the fleet namespace and tables that do not exist yet. Safe to run on every start and from several
     * processes at once: whoever loses a creation race finds the object created by the winner.
     */
    public static <C extends Catalog & SupportsNamespaces> void createMissing(C catalog) {
        requireNonNull(catalog, "catalog is null");
        if (!catalog.namespaceExists(NAMESPACE)) {
            try {
                catalog.createNamespace(NAMESPACE);
                LOG.info("Created namespace {}", NAMESPACE);
            } catch (AlreadyExistsException e) {
                LOG.debug("Namespace {} was created concurrently: {}", NAMESPACE, e.getMessage());
            }
        }
        // Listing reads only the catalog database; tableExists would load the table metadata from storage, the
        // slowest part of a restart.
        if (!catalog.listTables(NAMESPACE).contains(POSITIONS)) {
            try {
                String location = catalog.buildTable(POSITIONS, POSITIONS_SCHEMA)
                        .withPartitionSpec(POSITIONS_PARTITION_SPEC)
                        .withSortOrder(POSITIONS_SORT_ORDER)
                        .withProperties(POSITIONS_PROPERTIES)
                        .create()
                        .location();
                LOG.info("Created table {} at {}", POSITIONS, location);
            } catch (AlreadyExistsException e) {
                LOG.debug("Table {} was created concurrently: {}", POSITIONS, e.getMessage());
            }
        }
    }
}
