package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static io.fleetlake.flink.sinks.FleetTestTables.POSITIONS;
import static io.fleetlake.flink.sinks.FleetTestTables.REJECTED;
import static io.fleetlake.flink.sinks.FleetTestTables.VEHICLE_MINUTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.types.PipelineSerialization;
import io.fleetlake.flink.windows.MinuteAggregate;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.VehicleMinuteColumns;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.restore.FlinkCommit;
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
        List<EnrichedPosition> positions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Position position = TestRecords.position("VH-" + (i % 4), EVENT_TIME.plusSeconds(i));
            positions.add(TestRecords.enriched(position, i % 2, 100 + i));
        }
        positions.add(new EnrichedPosition(
                TestRecords.ingested(
                        new Position("VH-9", EVENT_TIME, 40.4, -3.7, 10.0, 90.0, null, null, null, 64.5), 0, 200),
                new Enrichment("R-9", "S-1", 420.0, DistanceMethod.ALONG_ROUTE, 3.5, VehicleStatus.ON_ROUTE, false)));

        run(IcebergTableSink.positions(catalogLoader), positions, EnrichedPosition.class);

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
        assertThat(first.getField("status")).isEqualTo("NO_ROUTE");
        assertThat(first.getField("route_id")).isNull();
        assertThat(first.getField("enrichment_stale")).isEqualTo(false);
        Record enriched = row(rows, "source_offset", 200L);
        assertThat(enriched.getField("battery_level")).isEqualTo(64.5);
        assertThat(enriched.getField("route_id")).isEqualTo("R-9");
        assertThat(enriched.getField("next_stop_id")).isEqualTo("S-1");
        assertThat(enriched.getField("distance_to_next_stop_m")).isEqualTo(420.0);
        assertThat(enriched.getField("distance_to_next_stop_method")).isEqualTo("ALONG_ROUTE");
        assertThat(enriched.getField("distance_from_route_m")).isEqualTo(3.5);
        assertThat(enriched.getField("status")).isEqualTo("ON_ROUTE");
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
    void vehicleMinuteEmittedAgainReplacesItsRowInTheSameCommitAndInALaterOne() throws Exception {
        Table table = createTable(
                IcebergTableSink.VEHICLE_MINUTES,
                VEHICLE_MINUTES,
                PartitionSpec.builderFor(VEHICLE_MINUTES)
                        .day(VehicleMinuteColumns.WINDOW_START)
                        .build());
        Instant minute = Instant.parse("2026-11-29T18:00:00Z");
        // The generator gives each subtask half of the elements in order: the first two stay in order on one subtask.
        List<VehicleMinute> firstRun = List.of(
                minute("VH-1", minute, 2, 0),
                minute("VH-1", minute, 3, 1),
                minute("VH-1", minute.plusSeconds(60), 5, 2),
                minute("VH-2", minute, 1, 3));

        run(IcebergTableSink.vehicleMinutes(catalogLoader), firstRun, VehicleMinute.class);

        assertThat(rows(table))
                .extracting(
                        row -> row.getField(VehicleMinuteColumns.VEHICLE_ID),
                        row -> row.getField(VehicleMinuteColumns.WINDOW_START).toString(),
                        row -> row.getField(VehicleMinuteColumns.POSITIONS))
                .containsExactlyInAnyOrder(
                        tuple("VH-1", "2026-11-29T18:00Z", 3),
                        tuple("VH-1", "2026-11-29T18:01Z", 5),
                        tuple("VH-2", "2026-11-29T18:00Z", 1));

        run(IcebergTableSink.vehicleMinutes(catalogLoader), List.of(minute("VH-1", minute, 4, 9)), VehicleMinute.class);

        assertThat(snapshots(table)).hasSize(2);
        List<Record> rows = rows(table);
        assertThat(rows).hasSize(3);
        Record replaced = rows.stream()
                .filter(row -> row.getField(VehicleMinuteColumns.VEHICLE_ID).equals("VH-1")
                        && row.getField(VehicleMinuteColumns.WINDOW_START)
                                .equals(OffsetDateTime.parse("2026-11-29T18:00:00Z")))
                .reduce((first, second) -> {
                    throw new AssertionError("Two rows for one key: " + first + " and " + second);
                })
                .orElseThrow();
        assertThat(replaced.getField(VehicleMinuteColumns.POSITIONS)).isEqualTo(4);
        assertThat(replaced.getField(VehicleMinuteColumns.WINDOW_END))
                .isEqualTo(OffsetDateTime.parse("2026-11-29T18:01:00Z"));
        assertThat(replaced.getField(VehicleMinuteColumns.DISTANCE_M)).isEqualTo(40.0);
        assertThat(replaced.getField(VehicleMinuteColumns.COMPUTED_AT))
                .isEqualTo(OffsetDateTime.parse("2026-11-29T18:06:09Z"));
    }

    /**
     * Every commit names the pipeline mode next to the job and checkpoint the committer records, and the history the
     * restore guard reads gives them back, newest first: each run of a job is a job id of its own.
     */
    @Test
    void everyCommitNamesItsModeAndTheHistoryReadsBackItsJobAndCheckpoint() throws Exception {
        Table table = createTable(
                IcebergTableSink.VEHICLE_MINUTES,
                VEHICLE_MINUTES,
                PartitionSpec.builderFor(VEHICLE_MINUTES)
                        .day(VehicleMinuteColumns.WINDOW_START)
                        .build());
        Instant minute = Instant.parse("2026-11-29T18:00:00Z");
        IcebergTableSink<VehicleMinute> sink =
                IcebergTableSink.vehicleMinutes(catalogLoader).committedBy(PipelineMode.CLUSTER);

        run(sink, List.of(minute("VH-1", minute, 2, 0)), VehicleMinute.class);
        run(sink, List.of(minute("VH-1", minute, 3, 1)), VehicleMinute.class);

        List<Snapshot> snapshots = snapshots(table);
        assertThat(snapshots).hasSize(2).allSatisfy(snapshot -> assertThat(snapshot.summary())
                .containsEntry(FlinkCommit.PIPELINE_MODE, "cluster"));
        List<FlinkCommit> commits = IcebergCommitHistory.commitsOf(Tables.VEHICLE_MINUTES, table);
        assertThat(commits)
                .extracting(FlinkCommit::snapshotId)
                .containsExactly(
                        table.currentSnapshot().snapshotId(),
                        table.currentSnapshot().parentId());
        assertThat(commits).allSatisfy(commit -> {
            assertThat(commit.table()).isEqualTo(Tables.VEHICLE_MINUTES);
            assertThat(commit.mode()).contains(PipelineMode.CLUSTER);
            assertThat(commit.jobId()).hasSize(32);
            // A bounded input's end is committed as Iceberg's end-of-input checkpoint.
            assertThat(commit.checkpointId()).isEqualTo(Long.MAX_VALUE);
        });
        assertThat(commits.get(0).jobId()).isNotEqualTo(commits.get(1).jobId());
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

    @Test
    void restCatalogPropertiesAuthenticateWithTheConfiguredCredential() {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_DIR,
                warehouse.toString(),
                FleetPipelineConfig.CATALOG_CREDENTIAL,
                "fleet-writer:writer-secret")));

        assertThat(IcebergTableSink.catalogProperties(config))
                .containsEntry("rest.auth.type", "oauth2")
                .containsEntry("credential", "fleet-writer:writer-secret")
                .containsEntry("oauth2-server-uri", "http://127.0.0.1:8181/v1/oauth/tokens")
                .containsEntry("scope", "catalog");
    }

    /** A row whose numbers derive from {@code positions}, computed {@code second} seconds after 18:06. */
    private static VehicleMinute minute(String vehicleId, Instant windowStart, int positions, int second) {
        return new VehicleMinute(
                vehicleId,
                windowStart,
                windowStart.plusSeconds(60),
                new MinuteAggregate(positions, positions * 10.0, 30.0, 50.0, 0.0),
                Instant.parse("2026-11-29T18:06:00Z").plusSeconds(second));
    }

    /**
     * Runs the sink with the pipeline's serialization (no Kryo: the writer's results reach the committer through the
     * registered serializer). {@code fleet.positions} is fed as the pipeline feeds it: rows built before the sink, by
     * its converter, written through {@link IcebergTableSink#attachRows}.
     */
    private static <T> void run(TableSink<T> sink, List<T> elements, Class<T> elementType) throws Exception {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                PipelineSerialization.configure(new org.apache.flink.configuration.Configuration()));
        environment.setParallelism(2);
        TypeInformation<T> type = TypeInformation.of(elementType);
        @SuppressWarnings("unchecked")
        T[] array = elements.toArray((T[]) Array.newInstance(elementType, 0));
        DataStream<T> stream = environment.fromSource(
                new DataGeneratorSource<>(new FromElementsGeneratorFunction<>(type, array), elements.size(), type),
                WatermarkStrategy.noWatermarks(),
                "elements");
        if (sink instanceof IcebergTableSink<T> table && elementType == EnrichedPosition.class) {
            table.attachRows(stream.map(table.rows(), table.rowType()).name("rows"));
        } else {
            sink.attach(stream);
        }
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
