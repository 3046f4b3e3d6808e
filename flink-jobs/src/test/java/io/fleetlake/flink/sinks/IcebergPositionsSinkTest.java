package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.Position;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.functions.FromElementsGeneratorFunction;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs Iceberg's {@code FlinkSink} as the pipeline attaches it, on a MiniCluster, against a file-system catalog: proves
 * the Flink table modules it needs are on the classpath and that rows land by column name.
 */
class IcebergPositionsSinkTest {
    /** The bootstrap's columns, in a different order than the pipeline's. */
    private static final Schema SCHEMA = new Schema(
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
            NestedField.optional(12, "satellites", Types.IntegerType.get()));

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path warehouse;

    private CatalogLoader catalogLoader;

    @BeforeEach
    void createCatalog() {
        catalogLoader = CatalogLoader.hadoop(
                IcebergPositionsSink.CATALOG_NAME,
                new Configuration(),
                Map.of(CatalogProperties.WAREHOUSE_LOCATION, warehouse.toUri().toString()));
    }

    @Test
    void writesEveryPositionInOneCommit() throws Exception {
        Table table = createTable();
        List<IngestedPosition> positions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Position position = TestRecords.position("VH-" + (i % 4), EVENT_TIME.plusSeconds(i));
            positions.add(TestRecords.ingested(position, i % 2, 100 + i));
        }

        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        environment.setParallelism(2);
        TypeInformation<IngestedPosition> type = TypeInformation.of(IngestedPosition.class);
        IcebergPositionsSink.connect(catalogLoader)
                .attach(environment.fromSource(
                        new DataGeneratorSource<>(
                                new FromElementsGeneratorFunction<>(type, positions.toArray(IngestedPosition[]::new)),
                                positions.size(),
                                type),
                        WatermarkStrategy.noWatermarks(),
                        "positions"));
        environment.execute("iceberg-sink-test");

        table.refresh();
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).summary())
                .containsEntry("added-records", "20")
                .containsKey("flink.max-committed-checkpoint-id");
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(rows::add);
        }
        assertThat(rows)
                .extracting(row -> row.getField("source_offset"))
                .hasSize(20)
                .doesNotHaveDuplicates();
        Record first = rows.stream()
                .filter(row -> row.getField("source_offset").equals(100L))
                .findFirst()
                .orElseThrow();
        assertThat(first.getField("vehicle_id")).isEqualTo("VH-0");
        assertThat(first.getField("source_partition")).isEqualTo(0);
        assertThat(first.getField("latitude")).isEqualTo(40.4168);
        assertThat(first.getField("satellites")).isEqualTo(11);
        assertThat(first.getField("event_time").toString()).isEqualTo("2026-11-29T18:00:00.123Z");
        assertThat(plannedFiles(table)).isPositive();
    }

    @Test
    void missingTableTellsToBootstrapTheCatalog() {
        assertThatThrownBy(() -> IcebergPositionsSink.connect(catalogLoader))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Iceberg table fleet.positions does not exist")
                .hasMessageContaining("creates it when it starts (bootstrap)");
    }

    @Test
    void restCatalogPropertiesPointAtS3CompatibleStorage() {
        FleetPipelineConfig config = new FleetPipelineConfig(
                "127.0.0.1:9092",
                "fleet-pipeline",
                URI.create("http://127.0.0.1:8181"),
                "s3://warehouse/",
                URI.create("http://127.0.0.1:9000"),
                Optional.of("access"),
                Optional.of("secret"),
                "us-east-1",
                URI.create("redis://127.0.0.1:6379"),
                Duration.ofSeconds(10),
                warehouse,
                2,
                Duration.ofHours(24),
                "127.0.0.1",
                8081,
                "fleet-pipeline");

        assertThat(IcebergPositionsSink.catalogProperties(config))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "uri", "http://127.0.0.1:8181",
                        "warehouse", "s3://warehouse/",
                        "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                        "s3.endpoint", "http://127.0.0.1:9000",
                        "s3.path-style-access", "true",
                        "s3.access-key-id", "access",
                        "s3.secret-access-key", "secret",
                        "client.region", "us-east-1"));
    }

    private Table createTable() throws IOException {
        try (HadoopCatalog catalog = (HadoopCatalog) catalogLoader.loadCatalog()) {
            catalog.createNamespace(Namespace.of("fleet"));
            PartitionSpec spec = PartitionSpec.builderFor(SCHEMA)
                    .day("event_time")
                    .bucket("vehicle_id", 16)
                    .build();
            return catalog.createTable(IcebergPositionsSink.TABLE, SCHEMA, spec);
        }
    }

    private static long plannedFiles(Table table) throws IOException {
        long files = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask ignored : tasks) {
                files++;
            }
        }
        return files;
    }
}
