package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.functions.FromElementsGeneratorFunction;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
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
class IcebergTableSinkTest {
    /** The bootstrap's columns, in a different order than the pipeline's, battery level added last. */
    private static final Schema POSITIONS = new Schema(
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
            NestedField.optional(13, "battery_level", Types.DoubleType.get()));

    /** The catalog's definition of fleet.rejected_positions. */
    private static final Schema REJECTED = new Schema(
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
                IcebergTableSink.CATALOG_NAME,
                new Configuration(),
                Map.of(CatalogProperties.WAREHOUSE_LOCATION, warehouse.toUri().toString()));
    }

    @Test
    void writesEveryPositionInOneCommit() throws Exception {
        Table table = createTable(
                IcebergTableSink.POSITIONS,
                POSITIONS,
                PartitionSpec.builderFor(POSITIONS)
                        .day("event_time")
                        .bucket("vehicle_id", 16)
                        .build());
        List<IngestedPosition> positions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Position position = TestRecords.position("VH-" + (i % 4), EVENT_TIME.plusSeconds(i));
            positions.add(TestRecords.ingested(position, i % 2, 100 + i));
        }
        positions.add(TestRecords.ingested(
                new Position("VH-9", EVENT_TIME, 40.4, -3.7, 10.0, 90.0, null, null, null, 64.5), 0, 200));

        run(IcebergTableSink.positions(catalogLoader), positions, IngestedPosition.class);

        assertThat(snapshots(table)).singleElement().satisfies(snapshot -> assertThat(snapshot.summary())
                .containsEntry("added-records", "21")
                .containsKey("flink.max-committed-checkpoint-id"));
        List<Record> rows = rows(table);
        assertThat(rows)
                .extracting(row -> row.getField("source_offset"))
                .hasSize(21)
                .doesNotHaveDuplicates();
        Record first = row(rows, "source_offset", 100L);
        assertThat(first.getField("vehicle_id")).isEqualTo("VH-0");
        assertThat(first.getField("source_partition")).isEqualTo(0);
        assertThat(first.getField("latitude")).isEqualTo(40.4168);
        assertThat(first.getField("satellites")).isEqualTo(11);
        assertThat(first.getField("battery_level")).isNull();
        assertThat(first.getField("event_time").toString()).isEqualTo("2026-11-29T18:00:00.123Z");
        assertThat(row(rows, "source_offset", 200L).getField("battery_level")).isEqualTo(64.5);
    }

    @Test
    void writesEveryRejectionWithItsOriginalBytes() throws Exception {
        Table table = createTable(
                IcebergTableSink.REJECTED_POSITIONS,
                REJECTED,
                PartitionSpec.builderFor(REJECTED)
                        .day(RejectedColumns.REJECTED_AT)
                        .identity(RejectedColumns.REASON)
                        .build());
        Instant rejectedAt = Instant.parse("2026-11-29T18:00:05Z");
        byte[] garbage = "garbage".getBytes(StandardCharsets.US_ASCII);
        RawRecord undecodable = TestRecords.raw(garbage, "VH-7", 1, 70);
        IngestedPosition jump = TestRecords.ingested(TestRecords.position("VH-8", EVENT_TIME), 0, 80);
        List<RejectedRecord> rejections = List.of(
                RejectedRecord.undecoded(undecodable, RejectionReason.MALFORMED_PAYLOAD, "not JSON", rejectedAt),
                RejectedRecord.of(jump, RejectionReason.IMPLAUSIBLE_JUMP, "505 km in 10s", rejectedAt),
                RejectedRecord.undecoded(
                        new RawRecord(Topics.RAW_POSITIONS, 0, 90, TestRecords.KAFKA_TIME, null, null, null, null),
                        RejectionReason.MALFORMED_PAYLOAD,
                        "Payload is empty",
                        rejectedAt));

        run(IcebergTableSink.rejectedPositions(catalogLoader), rejections, RejectedRecord.class);

        assertThat(snapshots(table)).hasSize(1);
        List<Record> rows = rows(table);
        assertThat(rows).hasSize(3);
        Record garbageRow = row(rows, RejectedColumns.SOURCE_OFFSET, 70L);
        assertThat(garbageRow.getField(RejectedColumns.PAYLOAD)).isEqualTo(ByteBuffer.wrap(garbage));
        assertThat(garbageRow.getField(RejectedColumns.PAYLOAD_SIZE)).isEqualTo(7);
        assertThat(garbageRow.getField(RejectedColumns.REASON)).isEqualTo("MALFORMED_PAYLOAD");
        assertThat(garbageRow.getField(RejectedColumns.VEHICLE_ID)).isEqualTo("VH-7");
        assertThat(garbageRow.getField(RejectedColumns.EVENT_TIME)).isNull();
        assertThat(garbageRow.getField(RejectedColumns.INGEST_TIME))
                .isEqualTo(OffsetDateTime.parse("2026-11-29T18:00:01.500Z"));
        Record jumpRow = row(rows, RejectedColumns.SOURCE_OFFSET, 80L);
        assertThat(jumpRow.getField(RejectedColumns.PAYLOAD))
                .isEqualTo(ByteBuffer.wrap(jump.source().value()));
        assertThat(jumpRow.getField(RejectedColumns.DETAIL)).isEqualTo("505 km in 10s");
        assertThat(jumpRow.getField(RejectedColumns.EVENT_TIME).toString()).isEqualTo("2026-11-29T18:00:00.123Z");
        assertThat(jumpRow.getField(RejectedColumns.REJECTED_AT))
                .isEqualTo(OffsetDateTime.parse("2026-11-29T18:00:05Z"));
        assertThat(row(rows, RejectedColumns.SOURCE_OFFSET, 90L).getField(RejectedColumns.PAYLOAD_SIZE))
                .isEqualTo(0);
    }

    @Test
    void missingTableTellsToBootstrapTheCatalog() {
        assertThatThrownBy(() -> IcebergTableSink.positions(catalogLoader))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Iceberg table fleet.positions does not exist")
                .hasMessageContaining("creates it when it starts (bootstrap)");
        assertThatThrownBy(() -> IcebergTableSink.rejectedPositions(catalogLoader))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Iceberg table fleet.rejected_positions does not exist");
    }

    @Test
    void tableThatDoesNotMatchFailsWhenTheSinkIsCreated() throws Exception {
        createTable(
                IcebergTableSink.REJECTED_POSITIONS,
                new Schema(NestedField.required(1, RejectedColumns.REASON, Types.StringType.get())),
                PartitionSpec.unpartitioned());

        assertThatThrownBy(() -> IcebergTableSink.rejectedPositions(catalogLoader))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column payload is missing");
    }

    @Test
    void restCatalogPropertiesPointAtS3CompatibleStorage() {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_DIR, warehouse.toString(),
                FleetPipelineConfig.S3_ACCESS_KEY, "access",
                FleetPipelineConfig.S3_SECRET_KEY, "secret")));

        assertThat(IcebergTableSink.catalogProperties(config))
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

    private static <T> void run(TableSink<T> sink, List<T> elements, Class<T> elementType) throws Exception {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        environment.setParallelism(2);
        TypeInformation<T> type = TypeInformation.of(elementType);
        @SuppressWarnings("unchecked")
        T[] array = elements.toArray((T[]) Array.newInstance(elementType, 0));
        DataStream<T> stream = environment.fromSource(
                new DataGeneratorSource<>(new FromElementsGeneratorFunction<>(type, array), elements.size(), type),
                WatermarkStrategy.noWatermarks(),
                "elements");
        sink.attach(stream);
        environment.execute("iceberg-sink-test");
    }

    private Table createTable(TableIdentifier identifier, Schema schema, PartitionSpec spec) throws IOException {
        try (HadoopCatalog catalog = (HadoopCatalog) catalogLoader.loadCatalog()) {
            if (!catalog.namespaceExists(Namespace.of("fleet"))) {
                catalog.createNamespace(Namespace.of("fleet"));
            }
            return catalog.createTable(identifier, schema, spec);
        }
    }

    private static List<Snapshot> snapshots(Table table) {
        table.refresh();
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        return snapshots;
    }

    private static List<Record> rows(Table table) throws IOException {
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(rows::add);
        }
        return rows;
    }

    private static Record row(List<Record> rows, String column, Object value) {
        return rows.stream()
                .filter(row -> value.equals(row.getField(column)))
                .findFirst()
                .orElseThrow();
    }
}
