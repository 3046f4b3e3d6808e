package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.Tables;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Schema;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;

/**
 * Writes accepted positions to the Iceberg table {@code fleet.positions} with Iceberg's {@link FlinkSink}: data files
 * are written continuously and committed once per completed checkpoint, exactly once (the committer records the
 * checkpoint id in the snapshot summary and skips checkpoints that are already committed after a restore).
 *
 * <p>{@code FlinkSink} is used rather than the sink-v2 {@code IcebergSink}, which lost rows when a bounded source ended
 * after a failover restore (see the design field notes).
 */
public final class IcebergPositionsSink implements PositionTableSink {
    static final String CATALOG_NAME = "fleet";
    static final TableIdentifier TABLE = TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS);
    private static final String UID_PREFIX = "iceberg-fleet-positions";

    private final CatalogLoader catalogLoader;
    private final Schema schema;

    private IcebergPositionsSink(CatalogLoader catalogLoader, Schema schema) {
        this.catalogLoader = requireNonNull(catalogLoader, "catalogLoader is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    /** Connects to the REST catalog and checks that the positions table exists and matches. */
    public static IcebergPositionsSink connect(FleetPipelineConfig config) {
        try {
            return connect(CatalogLoader.rest(CATALOG_NAME, new Configuration(), catalogProperties(config)));
        } catch (RESTException e) {
            throw new IllegalStateException(
                    "Cannot reach the Iceberg REST catalog at " + config.catalogUri() + " ("
                            + rootMessage(e) + "): start the iceberg-catalog component"
                            + " or fix " + FleetPipelineConfig.CATALOG_URI,
                    e);
        }
    }

    /**
     * Loads the table's schema through the given catalog, so that a missing table or a column mismatch fails at
     * start-up rather than at the first commit.
     */
    public static IcebergPositionsSink connect(CatalogLoader catalogLoader) {
        Catalog catalog = catalogLoader.loadCatalog();
        if (!(catalog instanceof Closeable closeable)) {
            return new IcebergPositionsSink(catalogLoader, loadSchema(catalog));
        }
        try (closeable) {
            return new IcebergPositionsSink(catalogLoader, loadSchema(catalog));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close Iceberg catalog " + catalog.name(), e);
        }
    }

    private static Schema loadSchema(Catalog catalog) {
        try {
            Schema schema = catalog.loadTable(TABLE).schema();
            // Validates the columns now; the sink builds its own converter from the same schema.
            new PositionRowConverter(schema);
            return schema;
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(
                    "Iceberg table " + TABLE + " does not exist in catalog " + catalog.name()
                            + ". The catalog server creates it when it starts (bootstrap): start the iceberg-catalog"
                            + " component, or run its table bootstrap, before the pipeline",
                    e);
        }
    }

    /** The Iceberg catalog properties of the REST catalog with S3FileIO on S3-compatible storage. */
    static Map<String, String> catalogProperties(FleetPipelineConfig config) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, config.catalogUri().toString());
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, config.warehouse());
        properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put(S3FileIOProperties.ENDPOINT, config.s3Endpoint().toString());
        properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, "true");
        config.s3AccessKey().ifPresent(key -> properties.put(S3FileIOProperties.ACCESS_KEY_ID, key));
        config.s3SecretKey().ifPresent(secret -> properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, secret));
        properties.put(AwsClientProperties.CLIENT_REGION, config.s3Region());
        return properties;
    }

    @Override
    public void attach(DataStream<IngestedPosition> positions) {
        TypeInformation<RowData> rowType = InternalTypeInfo.of(FlinkSchemaUtil.convert(schema));
        DataStream<RowData> rows = positions
                .map(new PositionRowConverter(schema), rowType)
                .name("positions-to-iceberg-rows")
                .uid("positions-to-iceberg-rows");
        FlinkSink.forRowData(rows)
                .tableLoader(TableLoader.fromCatalog(catalogLoader, TABLE))
                .uidPrefix(UID_PREFIX)
                .append()
                .name(UID_PREFIX);
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
