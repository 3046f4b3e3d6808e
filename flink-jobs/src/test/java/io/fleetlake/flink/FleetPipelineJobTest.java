package io.fleetlake.flink;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.types.PipelineSerialization;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.functions.FromElementsGeneratorFunction;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole topology on a MiniCluster with a bounded mixed stream. The counters are read through a metric reporter
 * registered in the MiniCluster ({@link InMemoryReporter}): they are the operators' real metrics, the same that the
 * REST API and a Prometheus reporter expose, so the test proves what operations will see. Accumulators would have
 * meant counting everything twice for the test's sake, and are only reported when the job ends.
 */
class FleetPipelineJobTest {
    private static final int PARALLELISM = 2;
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();
    private static final PositionCodec CODEC = PositionCodec.bundled();
    private static final double BARCELONA_LATITUDE = 41.3874;
    private static final double BARCELONA_LONGITUDE = 2.1686;
    private static final Instant MINUTE = Instant.parse("2026-11-29T18:00:00Z");
    /** The vehicle whose row the test's table cannot build. */
    private static final String ROW_FAILS = "VH-13";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    private final CollectingSink<RejectedRecord> deadLetters = new CollectingSink<>();
    private final CollectingSink<RejectedRecord> rejectedTable = new CollectingSink<>();
    private final CollectingSink<VehicleState> currentState = new CollectingSink<>();
    private final CollectingSink<EnrichedPosition> table = new CollectingSink<>();
    private final CollectingSink<VehicleMinute> minutes = new CollectingSink<>();
    private final CollectingSink<EnrichedPosition> late = new CollectingSink<>();

    @AfterEach
    void clearSinks() {
        deadLetters.clear();
        rejectedTable.clear();
        currentState.clear();
        table.clear();
        minutes.clear();
        late.clear();
    }

    @Test
    void everyRecordIsAcceptedRejectedOrDeduplicatedAndCountedOnce() throws Exception {
        Position firmware1 = TestRecords.position("VH-01", EVENT_TIME);
        Position firmware2 = withBattery(TestRecords.position("VH-02", EVENT_TIME), 80.0);
        Position firmware2Moved = withBattery(TestRecords.at("VH-02", EVENT_TIME, 40.4268, -3.7038), 80.0);
        Position firmware2Later = withBattery(TestRecords.position("VH-02", EVENT_TIME.plusSeconds(1)), 79.0);
        Position jsonDevice = withBattery(TestRecords.position("VH-03", EVENT_TIME), 55.5);
        Position paris = TestRecords.at("VH-07", EVENT_TIME, 48.8566, 2.3522);
        Position tooFast = new Position("VH-08", EVENT_TIME, 40.4, -3.7, 250.0, 90.0, null, null, null, null);
        Position startUpGlitch = TestRecords.at("VH-11", EVENT_TIME, BARCELONA_LATITUDE, BARCELONA_LONGITUDE);
        Position firstCorrect = TestRecords.position("VH-11", EVENT_TIME.plusSeconds(10));
        Position secondCorrect = moved(TestRecords.position("VH-11", EVENT_TIME.plusSeconds(20)), 1);
        Position thirdCorrect = moved(TestRecords.position("VH-11", EVENT_TIME.plusSeconds(30)), 2);
        Position nonFiniteAltitude =
                new Position("VH-23", EVENT_TIME, 40.4, -3.7, 50.0, 90.0, Double.NaN, null, null, null);
        Position rowFails = TestRecords.position(ROW_FAILS, EVENT_TIME);
        byte[] unknownSchema = new PositionCodec(PositionSchemas.of(List.of(SchemaBuilder.record("Position")
                        .namespace("io.fleetlake.model.avro")
                        .fields()
                        .requiredString("vehicle_id")
                        .endRecord())))
                .encodeAvro(TestRecords.position("VH-05", EVENT_TIME));
        byte[] tooLarge = ("{\"vehicle_id\":\"VH-06\",\"padding\":\"" + "x".repeat(5000) + "\"}")
                .getBytes(StandardCharsets.UTF_8);

        // Each partition becomes one source split (records of a vehicle stay in order, as in a Kafka partition).
        List<RawRecord> partition0 = List.of(
                TestRecords.raw(CODEC.encodeAvro(firmware1, CODEC.schemas().version(1)), "VH-01", 0, 0),
                received(CODEC.encodeAvro(firmware2), firmware2, 0, 1),
                received(CODEC.encodeJson(jsonDevice), jsonDevice, 0, 2),
                TestRecords.raw(CODEC.encodeAvro(firmware1, CODEC.schemas().version(1)), "VH-01", 0, 3),
                received(CODEC.encodeAvro(firmware2Moved), firmware2Moved, 0, 4),
                TestRecords.raw("garbage".getBytes(StandardCharsets.US_ASCII), "VH-04", 0, 5),
                TestRecords.raw(unknownSchema, "VH-05", 0, 6),
                TestRecords.raw(tooLarge, "VH-06", 0, 7),
                received(CODEC.encodeAvro(paris), paris, 0, 8),
                // The reported bug: a legal number as event_time, far outside any plausible range.
                TestRecords.raw(json("VH-20", "9000000000000000000"), "VH-20", 0, 9),
                TestRecords.raw(json("VH\r\n21", "\"2026-11-29T18:00:00Z\""), "VH\r\n21", 0, 10),
                TestRecords.raw(
                        (new String(CODEC.encodeJson(firmware1), StandardCharsets.UTF_8) + " trailing garbage")
                                .getBytes(StandardCharsets.UTF_8),
                        "VH-01",
                        0,
                        11));
        List<RawRecord> partition1 = List.of(
                received(CODEC.encodeAvro(tooFast), tooFast, 1, 0),
                TestRecords.raw(
                        CODEC.encodeAvro(TestRecords.position("VH-09", EVENT_TIME)),
                        "VH-09",
                        1,
                        1,
                        EVENT_TIME.minus(Duration.ofMinutes(10))),
                TestRecords.raw(
                        CODEC.encodeAvro(TestRecords.position("VH-10", EVENT_TIME)),
                        "VH-10",
                        1,
                        2,
                        EVENT_TIME.plus(Duration.ofDays(8))),
                received(CODEC.encodeAvro(startUpGlitch), startUpGlitch, 1, 3),
                received(CODEC.encodeAvro(firstCorrect), firstCorrect, 1, 4),
                received(CODEC.encodeAvro(secondCorrect), secondCorrect, 1, 5),
                received(CODEC.encodeJson(thirdCorrect), thirdCorrect, 1, 6),
                received(CODEC.encodeJson(firmware2Later), firmware2Later, 1, 7),
                TestRecords.raw(null, "VH-12", 1, 8),
                onTopic(CODEC.encodeAvro(TestRecords.position("VH-22", EVENT_TIME)), "VH-99", 1, 9),
                received(CODEC.encodeAvro(nonFiniteAltitude), nonFiniteAltitude, 1, 10),
                received(CODEC.encodeAvro(rowFails), rowFails, 1, 11));

        JobExecutionResult result = run(partition0, partition1);

        List<RawRecord> input = new ArrayList<>(partition0);
        input.addAll(partition1);
        assertThat(table.values())
                .extracting(EnrichedPosition::ingested)
                .extracting(
                        IngestedPosition::position, IngestedPosition::sourcePartition, IngestedPosition::sourceOffset)
                .containsExactlyInAnyOrder(
                        tuple(firmware1, 0, 0L),
                        tuple(firmware2, 0, 1L),
                        tuple(jsonDevice, 0, 2L),
                        tuple(startUpGlitch, 1, 3L),
                        tuple(secondCorrect, 1, 5L),
                        tuple(thirdCorrect, 1, 6L),
                        tuple(firmware2Later, 1, 7L));
        assertThat(currentState.values())
                .containsExactlyInAnyOrderElementsOf(
                        table.values().stream().map(VehicleState::of).toList());
        assertThat(table.values())
                .as("no vehicle has a route and every one is moving")
                .extracting(EnrichedPosition::enrichment)
                .containsOnly(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
        assertThat(minutes.values())
                .as("one minute per vehicle, fired once at the end of the input")
                .extracting(VehicleMinute::vehicleId, VehicleMinute::windowStart, minute -> minute.aggregate()
                        .positions())
                .containsExactlyInAnyOrder(
                        tuple("VH-01", MINUTE, 1),
                        tuple("VH-02", MINUTE, 2),
                        tuple("VH-03", MINUTE, 1),
                        tuple("VH-11", MINUTE, 3));
        assertThat(late.values()).isEmpty();
        assertThat(deadLetters.values())
                .extracting(
                        RejectedRecord::reason, rejected -> rejected.source().partition(), rejected -> rejected.source()
                                .offset())
                .containsExactlyInAnyOrder(
                        tuple(RejectionReason.CONFLICTING_RESEND, 0, 4L),
                        tuple(RejectionReason.MALFORMED_PAYLOAD, 0, 5L),
                        tuple(RejectionReason.UNKNOWN_SCHEMA, 0, 6L),
                        tuple(RejectionReason.PAYLOAD_TOO_LARGE, 0, 7L),
                        tuple(RejectionReason.OUTSIDE_REGION, 0, 8L),
                        tuple(RejectionReason.SPEED_TOO_HIGH, 1, 0L),
                        tuple(RejectionReason.EVENT_TIME_IN_FUTURE, 1, 1L),
                        tuple(RejectionReason.EVENT_TIME_TOO_OLD, 1, 2L),
                        tuple(RejectionReason.IMPLAUSIBLE_JUMP, 1, 4L),
                        tuple(RejectionReason.MALFORMED_PAYLOAD, 1, 8L),
                        tuple(RejectionReason.INVALID_FIELD, 0, 9L),
                        tuple(RejectionReason.INVALID_VEHICLE_ID, 0, 10L),
                        tuple(RejectionReason.MALFORMED_PAYLOAD, 0, 11L),
                        tuple(RejectionReason.VEHICLE_ID_MISMATCH, 1, 9L),
                        tuple(RejectionReason.INVALID_FIELD, 1, 10L),
                        tuple(RejectionReason.PROCESSING_ERROR, 1, 11L));
        assertThat(deadLetters.values())
                .filteredOn(rejected -> rejected.reason() == RejectionReason.PROCESSING_ERROR)
                .singleElement()
                .satisfies(rejected -> assertThat(rejected.detail())
                        .startsWith("vehicle-positions failed: java.lang.IllegalArgumentException: the test's row"
                                + " builder refuses"));
        assertThat(deadLetters.values())
                .as("every rejection point keeps the raw record untouched")
                .allSatisfy(rejected -> assertThat(input).contains(rejected.source()));
        assertThat(rejectedTable.values()).containsExactlyInAnyOrderElementsOf(deadLetters.values());

        Map<RejectionReason, Long> expectedByReason = new EnumMap<>(RejectionReason.class);
        deadLetters.values().forEach(rejected -> expectedByReason.merge(rejected.reason(), 1L, Long::sum));
        long accepted = table.values().size();
        long rejected = deadLetters.values().size();
        long deduplicated = input.size() - accepted - rejected;
        assertThat(deduplicated)
                .as("only the device resend at 0@3 is missing from the outputs")
                .isEqualTo(1);

        Counters counters = new Counters(result.getJobID());
        assertThat(counters.sum(PipelineMetricNames.RECORDS_READ)).isEqualTo(input.size());
        assertThat(counters.sum(PipelineMetricNames.RECORDS_ACCEPTED)).isEqualTo(accepted);
        assertThat(counters.sum(PipelineMetricNames.RECORDS_REJECTED)).isEqualTo(rejected);
        assertThat(counters.sum(PipelineMetricNames.RESENDS_DEDUPLICATED)).isEqualTo(deduplicated);
        assertThat(counters.sum(PipelineMetricNames.JUMP_BASELINE_RESETS)).isEqualTo(1);
        for (RejectionReason reason : RejectionReason.values()) {
            assertThat(counters.sum(PipelineMetricNames.REJECTION_REASON_GROUP + "." + reason.name()))
                    .as("rejections for %s", reason)
                    .isEqualTo(expectedByReason.getOrDefault(reason, 0L));
        }
        assertThat(counters.sum(PipelineMetricNames.RECORDS_READ))
                .as("recordsRead = recordsAccepted + recordsRejected + resendsDeduplicated")
                .isEqualTo(counters.sum(PipelineMetricNames.RECORDS_ACCEPTED)
                        + counters.sum(PipelineMetricNames.RECORDS_REJECTED)
                        + counters.sum(PipelineMetricNames.RESENDS_DEDUPLICATED));
    }

    @Test
    void uidsOfEarlierReleasesStayTheVehicleStepIsOneOperatorAndTheTableWriterRunsApart() {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                PipelineSerialization.configure(new Configuration()));
        environment.setParallelism(PARALLELISM);
        job(List.of(TestRecords.raw(null, "VH-01", 0, 0))).addTo(environment);
        StreamGraph graph = environment.getStreamGraph();

        // Checkpointed state is matched by these uids: a running stack restores from them.
        assertThat(graph.getStreamNodes())
                .extracting(StreamNode::getTransformationUID)
                .contains(
                        "raw-positions-source",
                        "decode-positions",
                        "dead-letter-sink",
                        "redis-current-state",
                        "event-time-watermarks",
                        "planning-routes-source",
                        "route-updates",
                        "vehicle-minutes",
                        "late-positions-sink")
                .as("de-duplication, jump check and enrichment are one operator with a uid of its own")
                .contains(FleetPipelineJob.VEHICLE_POSITIONS_UID)
                .as("the retired uids never come back: their state has another layout")
                .doesNotContainAnyElementsOf(FleetPipelineJob.RETIRED_UIDS);
        List<String> vertices = new ArrayList<>();
        graph.getJobGraph().getVertices().forEach(vertex -> vertices.add(vertex.getName()));
        assertThat(vertices)
                .as("the Redis sink and the windows are chained to the vehicle operator")
                .anySatisfy(name -> assertThat(name)
                        .startsWith("vehicle-positions")
                        .contains("redis-current-state", "vehicle-minutes"))
                .as("the table writer is a task of its own, so its flushes never stop the vehicle operator")
                .noneSatisfy(
                        name -> assertThat(name).contains("vehicle-positions").contains("collect-table"))
                .as("one shuffle of the payloads: decoding runs in the source tasks")
                .anySatisfy(name -> assertThat(name).contains("raw-positions-source", "decode-positions"));
        assertThat(graph.getStreamNodes())
                .filteredOn(node ->
                        List.of("planning-routes-source", "route-updates").contains(node.getTransformationUID()))
                .extracting(StreamNode::getParallelism)
                .containsExactly(1, 1);
    }

    @Test
    void jobWithAMissingPieceIsRefusedNamingIt() {
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
        DataGeneratorSource<RawRecord> source = new DataGeneratorSource<>(
                new FromElementsGeneratorFunction<>(type, TestRecords.raw(null, "VH-01", 0, 0)), 1, type);

        assertThatThrownBy(() -> FleetPipelineJob.builder().source(source).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The fleet pipeline job needs routeSource: call Builder.routeSource(...)");
        assertThatThrownBy(() -> FleetPipelineJob.builder().allowedLateness(Duration.ofMinutes(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowedLateness must not be negative, got PT-1M");
    }

    /**
     * The pipeline runs with object reuse on (records are handed to chained operators without a copy), which is only
     * safe while no operator keeps or changes a record it was given. Every output of a run with it must equal the output
     * of the same input without it; a kept and reused record would show as changed or repeated values.
     */
    @Test
    void objectReuseChangesNoOutput() throws Exception {
        List<RawRecord> partition0 = new ArrayList<>();
        List<RawRecord> partition1 = new ArrayList<>();
        for (int fix = 0; fix < 90; fix++) {
            Instant time = EVENT_TIME.plusSeconds(fix * 2L);
            Position a = moved(TestRecords.position("VH-31", time), fix);
            Position b = withBattery(moved(TestRecords.position("VH-32", time), fix), 90.0 - fix / 10.0);
            partition0.add(received(CODEC.encodeAvro(a), a, 0, partition0.size()));
            partition1.add(received(CODEC.encodeJson(b), b, 1, partition1.size()));
            if (fix % 30 == 0) {
                partition0.add(received(CODEC.encodeAvro(a), a, 0, partition0.size()));
                partition1.add(
                        TestRecords.raw("garbage".getBytes(StandardCharsets.US_ASCII), "VH-33", 1, partition1.size()));
            }
        }

        run(partition0, partition1, true);
        Map<String, List<String>> withReuse = outputs();
        for (CollectingSink<?> sink : List.of(deadLetters, rejectedTable, currentState, table, minutes, late)) {
            sink.reset();
        }
        run(partition0, partition1, false);
        Map<String, List<String>> withoutReuse = outputs();

        assertThat(withReuse.get("positions")).as("accepted positions").hasSize(180);
        assertThat(withReuse.get("minutes")).as("vehicle minutes").isNotEmpty();
        assertThat(withReuse.get("dead letters")).as("dead letters").hasSize(3);
        assertThat(withReuse).isEqualTo(withoutReuse);
    }

    /** Every sink's values, sorted, without what depends on the wall clock (rejection and computation times). */
    private Map<String, List<String>> outputs() {
        return Map.of(
                "positions",
                sorted(table.values().stream()
                        .map(row ->
                                row.ingested().position() + "@" + row.ingested().sourcePartition() + "/"
                                        + row.ingested().sourceOffset() + " " + row.enrichment())),
                "current state",
                sorted(currentState.values().stream().map(Object::toString)),
                "minutes",
                sorted(minutes.values().stream()
                        .map(minute -> minute.vehicleId() + " " + minute.windowStart() + " " + minute.aggregate())),
                "dead letters",
                sorted(deadLetters.values().stream()
                        .map(rejected ->
                                rejected.reason() + " " + rejected.source().partition() + "/"
                                        + rejected.source().offset())),
                "rejected table",
                sorted(rejectedTable.values().stream()
                        .map(rejected ->
                                rejected.reason() + " " + rejected.source().partition() + "/"
                                        + rejected.source().offset())),
                "late",
                sorted(late.values().stream().map(Object::toString)));
    }

    private static List<String> sorted(Stream<String> values) {
        return values.sorted().toList();
    }

    private JobExecutionResult run(List<RawRecord> partition0, List<RawRecord> partition1) throws Exception {
        return run(partition0, partition1, true);
    }

    private JobExecutionResult run(List<RawRecord> partition0, List<RawRecord> partition1, boolean objectReuse)
            throws Exception {
        // The generator source splits its index range evenly over the subtasks: equal halves = one split each.
        if (partition0.size() != partition1.size()) {
            throw new IllegalArgumentException("Give both partitions the same number of records");
        }
        List<RawRecord> input = new ArrayList<>(partition0);
        input.addAll(partition1);
        // The pipeline's serialization: generic types (Kryo) refused, object reuse on. No restart strategy: a record
        // that failed a task would fail the test.
        Configuration configuration = PipelineSerialization.configure(new Configuration());
        configuration.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        environment.setParallelism(PARALLELISM);
        job(input).addTo(environment);
        return environment.execute(PipelineMetricNames.JOB_NAME);
    }

    private FleetPipelineJob job(List<RawRecord> input) {
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
        DataGeneratorSource<RawRecord> source = new DataGeneratorSource<>(
                new FromElementsGeneratorFunction<>(type, input.toArray(RawRecord[]::new)), input.size(), type);
        TypeInformation<RoutePoll> pollType = TypeInformation.of(RoutePoll.class);
        DataGeneratorSource<RoutePoll> noRoutes = new DataGeneratorSource<>(
                new FromElementsGeneratorFunction<>(pollType, new RoutePoll(Instant.EPOCH, List.of())), 1, pollType);
        return FleetPipelineJob.builder()
                .source(source)
                .routeSource(noRoutes)
                .deadLetterSink(deadLetters)
                .rejectedTableSink(rejections -> rejections
                        .sinkTo(rejectedTable)
                        .name("collect-rejected-table")
                        .uid("collect-rejected-table"))
                .currentStateSink(currentState)
                .positionTableSink(CollectingTable.failingFor(
                        table, EnrichedPosition.class, "collect-table", CollectingTable.vehicles(Set.of(ROW_FAILS))))
                .vehicleMinuteTableSink(
                        rows -> rows.sinkTo(minutes).name("collect-minutes").uid("collect-minutes"))
                .latePositionSink(late)
                .validationRules(TestRecords.RULES)
                .enrichment(EnrichmentConfig.defaults())
                .stateTtl(Duration.ofHours(1))
                .maxOutOfOrderness(Duration.ofSeconds(30))
                .sourceIdleness(Duration.ofMinutes(1))
                .allowedLateness(Duration.ofMinutes(5))
                .build();
    }

    /** A JSON payload of a vehicle in Madrid with the given vehicle id and raw event_time JSON value. */
    private static byte[] json(String vehicleId, String eventTime) {
        return ("{\"vehicle_id\":\"" + vehicleId.replace("\r", "\\r").replace("\n", "\\n") + "\",\"event_time\":"
                        + eventTime
                        + ",\"latitude\":40.4168,\"longitude\":-3.7038,\"speed_kmh\":50,\"heading_deg\":90}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A record published on the MQTT topic of another vehicle than its payload's. */
    private static RawRecord onTopic(byte[] payload, String topicVehicle, int partition, long offset) {
        return new RawRecord(
                Topics.RAW_POSITIONS,
                partition,
                offset,
                TestRecords.KAFKA_TIME,
                topicVehicle.getBytes(StandardCharsets.UTF_8),
                payload,
                MqttTopics.positionTopic(topicVehicle),
                TestRecords.KAFKA_TIME.toEpochMilli());
    }

    /** A record received by the connector a second and a half after the device took the fix. */
    private static RawRecord received(byte[] payload, Position position, int partition, long offset) {
        return TestRecords.raw(
                payload,
                position.vehicleId(),
                partition,
                offset,
                position.eventTime().plusMillis(1500));
    }

    private static Position withBattery(Position position, double batteryLevel) {
        return new Position(
                position.vehicleId(),
                position.eventTime(),
                position.latitude(),
                position.longitude(),
                position.speedKmh(),
                position.headingDeg(),
                position.altitudeM(),
                position.accuracyM(),
                position.satellites(),
                batteryLevel);
    }

    /** {@code steps} times 22 m north. */
    private static Position moved(Position position, int steps) {
        return TestRecords.at(
                position.vehicleId(), position.eventTime(), position.latitude() + steps * 0.0002, position.longitude());
    }

    /** The job's counters by metric name, summed over operators and subtasks. */
    private record Counters(JobID job) {
        long sum(String name) {
            // Identifiers are scope.name; the name is matched whole, at the end.
            Map<String, Metric> metrics = METRICS.findMetrics(job, "\\." + Pattern.quote(name) + "$");
            assertThat(metrics).as("counters named %s", name).isNotEmpty();
            return metrics.values().stream()
                    .mapToLong(metric -> ((Counter) metric).getCount())
                    .sum();
        }
    }
}
