package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.Tables;
import io.fleetlake.model.VehicleMinuteColumns;
import io.fleetlake.model.restore.FlinkCommit;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;

/**
 * Writes a stream to an Iceberg table with Iceberg's {@link FlinkSink}: data files are written continuously and
 * committed once per completed checkpoint, exactly once (the committer records the checkpoint id in the snapshot
 * summary and skips checkpoints that are already committed after a restore). Rows are built by column name from the
 * table's schema, loaded when the sink is created, so a missing table or a column mismatch fails at start-up rather
 * than at the first commit.
 *
 * <p>{@code FlinkSink} is used rather than the sink-v2 {@code IcebergSink}, which lost rows when a bounded source ended
 * after a failover restore (see the design field notes).
 *
 * <p>A table with an upsert key ({@code fleet.vehicle_minutes}) is written in upsert mode: each row first deletes the
 * rows with its key (an equality delete) and is then inserted, so a row emitted again with the same key replaces the
 * earlier one, in the same commit or a later one; the sink routes all rows of a key to the same writer, in order.
 *
 * @param <T> the stream's element type
 */
public final class IcebergTableSink<T> implements TableSink<T>, RowTableSink<T, RowData> {
    static final String CATALOG_NAME = "fleet";
    static final TableIdentifier POSITIONS = TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS);
    static final TableIdentifier REJECTED_POSITIONS = TableIdentifier.of(Tables.NAMESPACE, Tables.REJECTED_POSITIONS);
    static final TableIdentifier VEHICLE_MINUTES = TableIdentifier.of(Tables.NAMESPACE, Tables.VEHICLE_MINUTES);
    /** The identifier columns of {@code fleet.vehicle_minutes}: one row per vehicle and minute. */
    static final List<String> VEHICLE_MINUTE_KEY =
            List.of(VehicleMinuteColumns.VEHICLE_ID, VehicleMinuteColumns.WINDOW_START);

    private final CatalogLoader catalogLoader;
    private final TableIdentifier table;
    private final Schema schema;
    private final Function<Schema, MapFunction<T, RowData>> converterFactory;
    private final String rowsUid;
    private final String sinkUidPrefix;
    private final List<String> upsertKey;
    private final Map<String, String> snapshotProperties;

    private IcebergTableSink(
            CatalogLoader catalogLoader,
            TableIdentifier table,
            Schema schema,
            Function<Schema, MapFunction<T, RowData>> converterFactory,
            String rowsUid,
            String sinkUidPrefix,
            List<String> upsertKey,
            Map<String, String> snapshotProperties) {
        this.catalogLoader = requireNonNull(catalogLoader, "catalogLoader is null");
        this.table = requireNonNull(table, "table is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.converterFactory = requireNonNull(converterFactory, "converterFactory is null");
        this.rowsUid = requireNonNull(rowsUid, "rowsUid is null");
        this.sinkUidPrefix = requireNonNull(sinkUidPrefix, "sinkUidPrefix is null");
        this.upsertKey = List.copyOf(requireNonNull(upsertKey, "upsertKey is null"));
        this.snapshotProperties = Map.copyOf(requireNonNull(snapshotProperties, "snapshotProperties is null"));
    }

    /**
     * The same sink, whose every commit names the pipeline mode in its snapshot summary ({@value
     * FlinkCommit#PIPELINE_MODE}), next to the job and checkpoint Iceberg's committer records: the restore guard then
     * tells which mode wrote last when it refuses a start.
     */
    public IcebergTableSink<T> committedBy(PipelineMode mode) {
        requireNonNull(mode, "mode is null");
        Map<String, String> properties = new LinkedHashMap<>(snapshotProperties);
        properties.put(FlinkCommit.PIPELINE_MODE, mode.toString());
        return new IcebergTableSink<>(
                catalogLoader, table, schema, converterFactory, rowsUid, sinkUidPrefix, upsertKey, properties);
    }

    /** {@code fleet.positions} through the REST catalog of the configuration. */
    public static IcebergTableSink<EnrichedPosition> positions(FleetPipelineConfig config) {
        return connected(config, IcebergTableSink::positions);
    }

    /** {@code fleet.rejected_positions} through the REST catalog of the configuration. */
    public static IcebergTableSink<RejectedRecord> rejectedPositions(FleetPipelineConfig config) {
        return connected(config, IcebergTableSink::rejectedPositions);
    }

    /** {@code fleet.vehicle_minutes} through the REST catalog of the configuration. */
    public static IcebergTableSink<VehicleMinute> vehicleMinutes(FleetPipelineConfig config) {
        return connected(config, IcebergTableSink::vehicleMinutes);
    }

    /** {@code fleet.positions}: every accepted position. The uids are those of the first release: never change them. */
    public static IcebergTableSink<EnrichedPosition> positions(CatalogLoader catalogLoader) {
        return connect(
                catalogLoader,
                POSITIONS,
                PositionRowConverter::new,
                "positions-to-iceberg-rows",
                "iceberg-fleet-positions",
                List.of());
    }

    /** {@code fleet.vehicle_minutes}: per-vehicle minute aggregates, upserted on (vehicle_id, window_start). */
    public static IcebergTableSink<VehicleMinute> vehicleMinutes(CatalogLoader catalogLoader) {
        return connect(
                catalogLoader,
                VEHICLE_MINUTES,
                VehicleMinuteRowConverter::new,
                "vehicle-minutes-to-iceberg-rows",
                "iceberg-fleet-vehicle-minutes",
                VEHICLE_MINUTE_KEY);
    }

    /** {@code fleet.rejected_positions}: every rejected record with its reason and original bytes. */
    public static IcebergTableSink<RejectedRecord> rejectedPositions(CatalogLoader catalogLoader) {
        return connect(
                catalogLoader,
                REJECTED_POSITIONS,
                RejectedRowConverter::new,
                "rejected-to-iceberg-rows",
                "iceberg-fleet-rejected-positions",
                List.of());
    }

    private static <T> IcebergTableSink<T> connect(
            CatalogLoader catalogLoader,
            TableIdentifier table,
            Function<Schema, MapFunction<T, RowData>> converterFactory,
            String rowsUid,
            String sinkUidPrefix,
            List<String> upsertKey) {
        Schema schema = loadSchema(catalogLoader, table);
        // Validates the columns now; the sink builds its own converter from the same schema.
        converterFactory.apply(schema);
        return new IcebergTableSink<>(
                catalogLoader, table, schema, converterFactory, rowsUid, sinkUidPrefix, upsertKey, Map.of());
    }

    private static <T> IcebergTableSink<T> connected(
            FleetPipelineConfig config, Function<CatalogLoader, IcebergTableSink<T>> sink) {
        try {
            return sink.apply(CatalogLoader.rest(CATALOG_NAME, new Configuration(), catalogProperties(config)));
        } catch (RESTException e) {
            throw new IllegalStateException(
                    "Cannot reach the Iceberg REST catalog at " + config.catalogUri() + " ("
                            + rootMessage(e) + "): start the iceberg-catalog component"
                            + " or fix " + FleetPipelineConfig.CATALOG_URI,
                    e);
        }
    }

    private static Schema loadSchema(CatalogLoader catalogLoader, TableIdentifier table) {
        Catalog catalog = catalogLoader.loadCatalog();
        if (!(catalog instanceof Closeable closeable)) {
            return loadSchema(catalog, table);
        }
        try (closeable) {
            return loadSchema(catalog, table);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close Iceberg catalog " + catalog.name(), e);
        }
    }

    private static Schema loadSchema(Catalog catalog, TableIdentifier table) {
        try {
            return catalog.loadTable(table).schema();
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(
                    "Iceberg table " + table + " does not exist in catalog " + catalog.name()
                            + ". The catalog server creates it when it starts (bootstrap): start the iceberg-catalog"
                            + " component, or run its table bootstrap, before the pipeline",
                    e);
        }
    }

    /** The Iceberg catalog properties of the REST catalog with S3FileIO on S3-compatible storage. */
    static Map<String, String> catalogProperties(FleetPipelineConfig config) {
        return config.catalogClient().toMap();
    }

    /** Converts in a map of its own (uid {@code rowsUid}), chained to the writer, then writes. */
    @Override
    public void attach(DataStream<T> stream) {
        write(stream.map(rows(), rowType()).name(rowsUid).uid(rowsUid), DistributionMode.NONE);
    }

    @Override
    public MapFunction<T, RowData> rows() {
        return converterFactory.apply(schema);
    }

    @Override
    public TypeInformation<RowData> rowType() {
        return InternalTypeInfo.of(FlinkSchemaUtil.convert(schema));
    }

    /**
     * Writes rows built elsewhere. The rows are distributed by partition ({@code HASH}): each partition of the table is
     * written by one writer subtask, so a checkpoint makes one file per partition rather than one per partition and
     * subtask. The writers therefore run in tasks of their own, never chained to the operator that built the rows, so
     * the file uploads of their flush at every checkpoint do not stop that operator (and the Redis updates it sends).
     */
    @Override
    public void attachRows(DataStream<RowData> rows) {
        write(rows, DistributionMode.HASH);
    }

    /**
     * @param distribution how rows reach the writer subtasks: {@code HASH} by partition, so each partition is written
     *     by one subtask (one file per partition and checkpoint instead of one per subtask); {@code NONE} forward
     */
    private void write(DataStream<RowData> rows, DistributionMode distribution) {
        TableLoader loader = TableLoader.fromCatalog(catalogLoader, table);
        FlinkSink.Builder builder = FlinkSink.forRowData(rows)
                .tableLoader(loader)
                .table(loadTable(loader))
                .distributionMode(distribution)
                .setSnapshotProperties(snapshotProperties)
                .uidPrefix(sinkUidPrefix);
        if (!upsertKey.isEmpty()) {
            builder.upsert(true).equalityFieldColumns(upsertKey);
        }
        builder.append().name(sinkUidPrefix);
    }

    private static Table loadTable(TableLoader loader) {
        try (TableLoader open = loader.clone()) {
            open.open();
            return open.loadTable();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the table loader of " + loader, e);
        }
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
