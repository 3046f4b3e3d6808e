package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.fleetlake.model.Tables;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg table {@code fleet.daily_summary}: one row per vehicle and UTC day, written by {@link DailySummaryJob}.
 * {@link DailySummary} defines the columns.
 *
 * <p>Partitioned by {@code day} (identity): a rerun of a day replaces exactly that day's partition, and a query for a
 * period reads only its days. Sorted by {@code vehicle_id}. (day, vehicle_id) are the identifier fields.
 */
public final class DailySummaryTable {
    /** The table's name in the {@code fleet} namespace; not yet in {@link Tables}. */
    public static final String NAME = "daily_summary";

    public static final TableIdentifier IDENTIFIER = TableIdentifier.of(Namespace.of(Tables.NAMESPACE), NAME);

    public static final String DAY = "day";
    public static final String VEHICLE_ID = "vehicle_id";
    public static final String POSITIONS = "positions";
    public static final String DISTANCE_KM = "distance_km";
    public static final String SECONDS_STOPPED = "seconds_stopped";
    public static final String ON_ROUTE_SHARE = "on_route_share";
    public static final String POSITIONS_REJECTED = "positions_rejected";
    public static final String COMPUTED_AT = "computed_at";

    /** The columns in table order. */
    public static final List<String> COLUMNS = List.of(
            DAY, VEHICLE_ID, POSITIONS, DISTANCE_KM, SECONDS_STOPPED, ON_ROUTE_SHARE, POSITIONS_REJECTED, COMPUTED_AT);

    public static final Schema SCHEMA = new Schema(
            List.of(
                    required(1, DAY, Types.DateType.get(), "UTC day of the positions' event time"),
                    required(2, VEHICLE_ID, Types.StringType.get(), "Vehicle identifier"),
                    required(3, POSITIONS, Types.LongType.get(), "Accepted positions of the vehicle that day"),
                    required(
                            4,
                            DISTANCE_KM,
                            Types.DoubleType.get(),
                            "Kilometres between consecutive fixes of the day in event-time order (haversine,"
                                    + " R = 6371008.8 m)"),
                    required(
                            5,
                            SECONDS_STOPPED,
                            Types.DoubleType.get(),
                            "Seconds between consecutive fixes of the day that were both below 3 km/h"),
                    optional(
                            6,
                            ON_ROUTE_SHARE,
                            Types.DoubleType.get(),
                            "Share of the day's positions with a route whose status was ON_ROUTE, 0..1; null when"
                                    + " no position had a route"),
                    required(
                            7,
                            POSITIONS_REJECTED,
                            Types.LongType.get(),
                            "Rows of fleet.rejected_positions for the vehicle rejected that day (UTC)"),
                    required(
                            8,
                            COMPUTED_AT,
                            Types.TimestampType.withZone(),
                            "When the job computed the row; a rerun of the day replaces it")),
            Set.of(1, 2));

    public static final PartitionSpec PARTITION_SPEC =
            PartitionSpec.builderFor(SCHEMA).identity(DAY).build();

    public static final SortOrder SORT_ORDER =
            SortOrder.builderFor(SCHEMA).asc(VEHICLE_ID).build();

    /** The properties of the fleet's other tables (see the iceberg-catalog module's {@code FleetTables}). */
    public static final Map<String, String> PROPERTIES = Map.of(
            TableProperties.FORMAT_VERSION, "2",
            TableProperties.DEFAULT_FILE_FORMAT, "parquet",
            TableProperties.PARQUET_COMPRESSION, "zstd");

    private static final Logger LOG = LoggerFactory.getLogger(DailySummaryTable.class);

    private DailySummaryTable() {}

    /**
     * Creates the table when it does not exist; a table that exists is left as it is. Safe when another process creates
     * it at the same time.
     */
    public static Table ensure(Catalog catalog) {
        requireNonNull(catalog, "catalog is null");
        if (catalog.tableExists(IDENTIFIER)) {
            return catalog.loadTable(IDENTIFIER);
        }
        try {
            Table table = catalog.buildTable(IDENTIFIER, SCHEMA)
                    .withPartitionSpec(PARTITION_SPEC)
                    .withSortOrder(SORT_ORDER)
                    .withProperties(PROPERTIES)
                    .create();
            LOG.info("Created table {}", IDENTIFIER);
            return table;
        } catch (AlreadyExistsException e) {
            LOG.info("Table {} was created by another process meanwhile", IDENTIFIER);
            return catalog.loadTable(IDENTIFIER);
        }
    }
}
