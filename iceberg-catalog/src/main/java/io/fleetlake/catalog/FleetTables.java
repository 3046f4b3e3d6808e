package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.fleetlake.catalog.TableDefinition.AddedColumn;
import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.model.VehicleMinuteColumns;
import io.fleetlake.model.codec.PositionField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * Definitions of the fleet's Iceberg tables, and {@link #ensure} that brings a catalog up to them.
 *
 * <p>Each table is a {@link TableDefinition}: its initial schema, which never changes because the table already exists
 * in users' storage, then the columns added since, like database migrations.
 */
public final class FleetTables {
    public static final Namespace NAMESPACE = Namespace.of(Tables.NAMESPACE);

    public static final int FORMAT_VERSION = 2;
    public static final int VEHICLE_BUCKETS = 16;

    /**
     * Metadata files kept besides the current one. Flink commits once per checkpoint, so a 10 s checkpoint writes
     * 8,640 metadata files a day, each a full copy of the snapshot list; without cleanup they pile up in the bucket.
     * Snapshots (time travel) are not affected: they live in the current metadata until snapshot expiry removes them.
     * 100 previous files (about 17 minutes of commits) still allow rolling the table pointer back by hand.
     */
    public static final int METADATA_PREVIOUS_VERSIONS = 100;

    /** Properties of every fleet table. */
    public static final Map<String, String> TABLE_PROPERTIES = Map.of(
            TableProperties.FORMAT_VERSION, String.valueOf(FORMAT_VERSION),
            TableProperties.DEFAULT_FILE_FORMAT, "parquet",
            TableProperties.PARQUET_COMPRESSION, "zstd",
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true",
            TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, String.valueOf(METADATA_PREVIOUS_VERSIONS));

    /**
     * The table property Iceberg's Parquet writer reads to switch dictionary encoding (Parquet's own key; Iceberg has no
     * constant for it).
     */
    public static final String PARQUET_DICTIONARY_ENABLED = "parquet.enable.dictionary";

    /**
     * The Parquet settings of the tables the pipeline writes continuously, as table properties, so that every writer
     * (the pipeline, a backfill, Spark) writes the same way and {@code SHOW CREATE TABLE} shows them. Each was chosen by
     * a {@code fleet bench} run (BENCHMARKS.md, issue 24).
     *
     * <p>Pages of 64 KiB instead of 1 MiB: a data file is written per partition and writer at every checkpoint, a few
     * thousand rows each, and Parquet sizes each column's compression buffer by the page size, so 1 MiB pages made every
     * file allocate a humongous buffer per column for the 1 GiB heap of the pipeline.
     *
     * <p>No dictionary encoding ({@value #PARQUET_DICTIONARY_ENABLED}): Iceberg 1.11 can only switch it for a whole
     * table, and most columns of these tables (coordinates, speeds, times, offsets) never repeat within a file, so the
     * writer hashed every value into a dictionary that it then gave up for plain encoding. The few repeating strings
     * (vehicle, route, status, reason) compress with zstd instead; the bench prints the stored bytes per row.
     */
    public static final Map<String, String> STREAMING_WRITE_PROPERTIES = Map.of(
            TableProperties.PARQUET_PAGE_SIZE_BYTES, Integer.toString(64 * 1024), PARQUET_DICTIONARY_ENABLED, "false");

    /**
     * {@code fleet.positions}: every accepted position with its lineage, the raw topic partition and offset the record
     * was read from and the Kafka record timestamp, so any row can be traced back to its source record.
     *
     * <p>Schema 0 holds the position v1 fields; schema 1 adds {@code battery_level} (position v2); schemas 2 to 8 add
     * the enrichment columns, where the vehicle is on its planned route, one schema per column in
     * {@link EnrichmentColumns} order.
     */
    public static final TableDefinition POSITIONS = positions();

    /**
     * {@code fleet.rejected_positions}: every record the pipeline rejected, with the reason, where it came from and the
     * original bytes, for audits.
     *
     * <p>Partitioned by {@code day(rejected_at)} and {@code identity(reason)} because audits ask "rejections by reason
     * over time": a query for a period and some reasons reads only those days and reasons. {@code rejected_at} rather
     * than {@code event_time}, which is null when the payload could not be decoded and can lie far in the past or
     * future, so a day's partition only receives that day's commits. There are a dozen reasons, so at most a dozen
     * partitions a day. Sorted by {@code rejected_at} so each file covers a short time range and finer time filters
     * skip files by their statistics.
     */
    public static final TableDefinition REJECTED_POSITIONS = rejectedPositions();

    /**
     * {@code fleet.vehicle_minutes}: per-vehicle one-minute aggregates. (vehicle_id, window_start) are the identifier
     * fields: the pipeline upserts, so a late update of a window replaces its row instead of adding one, and a backfill
     * merges on the same key. Partitioned by day so that an upsert's equality deletes stay within one day.
     */
    public static final TableDefinition VEHICLE_MINUTES = vehicleMinutes();

    /**
     * The geocoding job merges every run's positions into {@code fleet.position_places}. Copy-on-write would rewrite
     * each data file holding a matched key, even when the row does not change (a rerun with {@code --since}); merge on
     * read writes only the rows that change and position deletes for the ones replaced or removed.
     */
    public static final Map<String, String> POSITION_PLACES_PROPERTIES = positionPlacesProperties();

    /**
     * {@code fleet.position_places}: the nearest place of each position, written by the geocoding job ({@code fleet
     * geocode}, spark-jobs), one row per position. (vehicle_id, event_time) are the identifier fields, the key of
     * {@code fleet.positions}: the job merges on it, so a rerun writes no second row. Partitioned by day of event time
     * like the positions it names, and sorted the same way, so the view joining the two reads matching days.
     */
    public static final TableDefinition POSITION_PLACES = positionPlaces();

    /** Every fleet table, in the order {@link #ensure} brings them up to date. */
    public static final List<TableDefinition> ALL =
            List.of(POSITIONS, REJECTED_POSITIONS, VEHICLE_MINUTES, POSITION_PLACES);

    private FleetTables() {}

    /**
     * Creates the fleet namespace and tables that do not exist yet, with their initial schema, then adds to every table
     * the columns it lacks, one commit per column, in order; logs each change. A table that is up to date is not
     * written. Safe to run on every start and from several processes at once: a creation or commit lost to another
     * process is checked again against what that process wrote.
     *
     * @throws IllegalStateException when a table has a defined column with another type, or the commits keep
     *     conflicting
     */
    public static <C extends Catalog & SupportsNamespaces> void ensure(C catalog) {
        requireNonNull(catalog, "catalog is null");
        ALL.stream()
                .map(definition -> definition.identifier().namespace())
                .distinct()
                .forEach(namespace -> TableBootstrap.ensureNamespace(catalog, namespace));
        for (TableDefinition definition : ALL) {
            TableBootstrap.ensureTable(catalog, definition);
        }
    }

    private static TableDefinition positions() {
        Schema schema = new Schema(
                required(
                        1,
                        PositionField.VEHICLE_ID.fieldName(),
                        Types.StringType.get(),
                        "Fleet-wide vehicle identifier"),
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
                required(
                        11,
                        LineageColumns.SOURCE_OFFSET,
                        Types.LongType.get(),
                        "Offset of the record in that partition"),
                required(
                        12,
                        LineageColumns.INGEST_TIME,
                        Types.TimestampType.withZone(),
                        "Kafka record timestamp: when the record was appended to the raw positions topic"));
        return new TableDefinition(
                TableIdentifier.of(NAMESPACE, Tables.POSITIONS),
                schema,
                PartitionSpec.builderFor(schema)
                        .day(PositionField.EVENT_TIME.fieldName())
                        .bucket(PositionField.VEHICLE_ID.fieldName(), VEHICLE_BUCKETS)
                        .build(),
                SortOrder.builderFor(schema)
                        .asc(PositionField.VEHICLE_ID.fieldName())
                        .asc(PositionField.EVENT_TIME.fieldName())
                        .build(),
                streamingTableProperties(),
                List.of(
                        new AddedColumn(
                                PositionField.BATTERY_LEVEL.fieldName(),
                                Types.DoubleType.get(),
                                "Charge of the device battery in percent, 0..100; null for firmware 1.x devices"),
                        new AddedColumn(
                                EnrichmentColumns.ROUTE_ID,
                                Types.StringType.get(),
                                "Route the planning API assigned to the vehicle; null when it has none"),
                        new AddedColumn(
                                EnrichmentColumns.NEXT_STOP_ID,
                                Types.StringType.get(),
                                "Next stop of the route not reached yet; null when none is left"),
                        new AddedColumn(
                                EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M,
                                Types.DoubleType.get(),
                                "Metres to the next stop, measured as distance_to_next_stop_method says"),
                        new AddedColumn(
                                EnrichmentColumns.DISTANCE_TO_NEXT_STOP_METHOD,
                                Types.StringType.get(),
                                "ALONG_ROUTE (along the route path) or STRAIGHT_LINE (the vehicle is off the route)"),
                        new AddedColumn(
                                EnrichmentColumns.DISTANCE_FROM_ROUTE_M,
                                Types.DoubleType.get(),
                                "Metres from the route path; null when the vehicle has no route"),
                        new AddedColumn(
                                EnrichmentColumns.STATUS,
                                Types.StringType.get(),
                                "ON_ROUTE, DEVIATING, STOPPED or NO_ROUTE"),
                        new AddedColumn(
                                EnrichmentColumns.ENRICHMENT_STALE,
                                Types.BooleanType.get(),
                                "True when the route used was older than the refresh allows because the planning API"
                                        + " could not be reached")));
    }

    private static TableDefinition vehicleMinutes() {
        Schema schema = new Schema(
                List.of(
                        required(1, VehicleMinuteColumns.VEHICLE_ID, Types.StringType.get(), "Vehicle identifier"),
                        required(
                                2,
                                VehicleMinuteColumns.WINDOW_START,
                                Types.TimestampType.withZone(),
                                "Start of the one-minute event-time window (inclusive)"),
                        required(
                                3,
                                VehicleMinuteColumns.WINDOW_END,
                                Types.TimestampType.withZone(),
                                "End of the window (exclusive)"),
                        required(
                                4,
                                VehicleMinuteColumns.POSITIONS,
                                Types.IntegerType.get(),
                                "Accepted positions in the window"),
                        required(
                                5,
                                VehicleMinuteColumns.DISTANCE_M,
                                Types.DoubleType.get(),
                                "Great-circle metres between consecutive fixes of the window, in event-time order"),
                        required(
                                6,
                                VehicleMinuteColumns.AVG_SPEED_KMH,
                                Types.DoubleType.get(),
                                "Average reported speed"),
                        required(
                                7,
                                VehicleMinuteColumns.MAX_SPEED_KMH,
                                Types.DoubleType.get(),
                                "Highest reported speed"),
                        required(
                                8,
                                VehicleMinuteColumns.SECONDS_STOPPED,
                                Types.DoubleType.get(),
                                "Seconds between consecutive fixes of the window that were both below the stop speed"),
                        required(
                                9,
                                VehicleMinuteColumns.COMPUTED_AT,
                                Types.TimestampType.withZone(),
                                "When the row was computed, by the pipeline or by a backfill")),
                Set.of(1, 2));
        return new TableDefinition(
                TableIdentifier.of(NAMESPACE, Tables.VEHICLE_MINUTES),
                schema,
                PartitionSpec.builderFor(schema)
                        .day(VehicleMinuteColumns.WINDOW_START)
                        .build(),
                SortOrder.builderFor(schema)
                        .asc(VehicleMinuteColumns.VEHICLE_ID)
                        .asc(VehicleMinuteColumns.WINDOW_START)
                        .build(),
                streamingTableProperties(),
                List.of());
    }

    private static Map<String, String> streamingTableProperties() {
        Map<String, String> properties = new LinkedHashMap<>(TABLE_PROPERTIES);
        properties.putAll(STREAMING_WRITE_PROPERTIES);
        return Map.copyOf(properties);
    }

    private static Map<String, String> positionPlacesProperties() {
        Map<String, String> properties = new LinkedHashMap<>(TABLE_PROPERTIES);
        properties.put(TableProperties.MERGE_MODE, "merge-on-read");
        properties.put(TableProperties.UPDATE_MODE, "merge-on-read");
        properties.put(TableProperties.DELETE_MODE, "merge-on-read");
        return Map.copyOf(properties);
    }

    private static TableDefinition positionPlaces() {
        Schema schema = new Schema(
                List.of(
                        required(1, PlaceColumns.VEHICLE_ID, Types.StringType.get(), "Vehicle identifier"),
                        required(
                                2,
                                PlaceColumns.EVENT_TIME,
                                Types.TimestampType.withZone(),
                                "Event time of the position; with vehicle_id the key of fleet.positions"),
                        required(
                                3,
                                PlaceColumns.LATITUDE,
                                Types.DoubleType.get(),
                                "WGS84 latitude that was geocoded, as in fleet.positions"),
                        required(
                                4,
                                PlaceColumns.LONGITUDE,
                                Types.DoubleType.get(),
                                "WGS84 longitude that was geocoded, as in fleet.positions"),
                        optional(
                                5,
                                PlaceColumns.PLACE_NAME,
                                Types.StringType.get(),
                                "Nearest populated place (GeoNames); null when none is within the job's maximum"
                                        + " distance, for example at sea"),
                        optional(
                                6,
                                PlaceColumns.MUNICIPALITY,
                                Types.StringType.get(),
                                "Municipality of the place where the gazetteer names one (Portugal: concelho)"),
                        optional(
                                7,
                                PlaceColumns.PROVINCE,
                                Types.StringType.get(),
                                "Province (Spain), district or autonomous region (Portugal) of the place"),
                        optional(
                                8,
                                PlaceColumns.REGION,
                                Types.StringType.get(),
                                "Autonomous community or city (Spain), district or autonomous region (Portugal)"),
                        optional(
                                9,
                                PlaceColumns.COUNTRY_CODE,
                                Types.StringType.get(),
                                "ISO 3166-1 alpha-2 code of the place's country"),
                        optional(10, PlaceColumns.COUNTRY, Types.StringType.get(), "The place's country"),
                        optional(
                                11,
                                PlaceColumns.DISTANCE_KM,
                                Types.DoubleType.get(),
                                "Great-circle kilometres from the position to the place"),
                        required(
                                12,
                                PlaceColumns.GAZETTEER,
                                Types.StringType.get(),
                                "Version of the gazetteer the place came from"),
                        required(
                                13,
                                PlaceColumns.GEOCODED_AT,
                                Types.TimestampType.withZone(),
                                "When the geocoding job wrote the row")),
                Set.of(1, 2));
        return new TableDefinition(
                TableIdentifier.of(NAMESPACE, Tables.POSITION_PLACES),
                schema,
                PartitionSpec.builderFor(schema).day(PlaceColumns.EVENT_TIME).build(),
                SortOrder.builderFor(schema)
                        .asc(PlaceColumns.VEHICLE_ID)
                        .asc(PlaceColumns.EVENT_TIME)
                        .build(),
                POSITION_PLACES_PROPERTIES,
                List.of());
    }

    private static TableDefinition rejectedPositions() {
        Schema schema = new Schema(
                required(
                        1,
                        RejectedColumns.REJECTED_AT,
                        Types.TimestampType.withZone(),
                        "When the pipeline rejected the record"),
                required(
                        2,
                        RejectedColumns.REASON,
                        Types.StringType.get(),
                        "Why: the stable RejectionReason name, such as OUTSIDE_REGION"),
                required(
                        3,
                        RejectedColumns.DETAIL,
                        Types.StringType.get(),
                        "Human-readable explanation with the offending value and the limit"),
                required(
                        4,
                        RejectedColumns.SOURCE_TOPIC,
                        Types.StringType.get(),
                        "Kafka topic the record was read from"),
                required(
                        5,
                        RejectedColumns.SOURCE_PARTITION,
                        Types.IntegerType.get(),
                        "Partition of that topic the record was read from"),
                required(
                        6,
                        RejectedColumns.SOURCE_OFFSET,
                        Types.LongType.get(),
                        "Offset of the record in that partition"),
                required(
                        7,
                        RejectedColumns.INGEST_TIME,
                        Types.TimestampType.withZone(),
                        "Kafka record timestamp of the rejected record"),
                optional(
                        8,
                        RejectedColumns.VEHICLE_ID,
                        Types.StringType.get(),
                        "Vehicle identifier from the Kafka key or the decoded payload; null when neither has one"),
                optional(
                        9,
                        RejectedColumns.EVENT_TIME,
                        Types.TimestampType.withZone(),
                        "When the device took the fix; null when the payload could not be decoded"),
                required(
                        10,
                        RejectedColumns.PAYLOAD,
                        Types.BinaryType.get(),
                        "The original payload bytes, untouched, so the record can be decoded again or reprocessed"),
                required(
                        11,
                        RejectedColumns.PAYLOAD_SIZE,
                        Types.IntegerType.get(),
                        "Size of the original payload in bytes"));
        return new TableDefinition(
                TableIdentifier.of(NAMESPACE, Tables.REJECTED_POSITIONS),
                schema,
                PartitionSpec.builderFor(schema)
                        .day(RejectedColumns.REJECTED_AT)
                        .identity(RejectedColumns.REASON)
                        .build(),
                SortOrder.builderFor(schema).asc(RejectedColumns.REJECTED_AT).build(),
                streamingTableProperties(),
                List.of());
    }
}
