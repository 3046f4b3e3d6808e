package io.fleetlake.flink;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
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
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FleetPipelineJobTest {
    private static final int PARALLELISM = 2;
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    private final CollectingSink<RejectedRecord> deadLetters = new CollectingSink<>();
    private final CollectingSink<IngestedPosition> currentState = new CollectingSink<>();
    private final CollectingSink<IngestedPosition> table = new CollectingSink<>();

    @AfterEach
    void clearSinks() {
        deadLetters.clear();
        currentState.clear();
        table.clear();
    }

    @Test
    void acceptsRejectsAndDeduplicates() throws Exception {
        Position vehicle1 = TestRecords.position("VH-1", EVENT_TIME);
        Position vehicle1Later = TestRecords.position("VH-1", EVENT_TIME.plusSeconds(1));
        Position vehicle2 = TestRecords.position("VH-2", EVENT_TIME);
        Position vehicle2SameTimeOtherPlace = new Position("VH-2", EVENT_TIME, 36.0, -5.0, 0, 0, null, null, null);
        Position vehicle2Later = TestRecords.position("VH-2", EVENT_TIME.plusSeconds(1));
        Position vehicle3 = TestRecords.position("VH-3", EVENT_TIME);
        Position nanLatitude = new Position("VH-4", EVENT_TIME, Double.NaN, 0, 0, 0, null, null, null);
        List<RawRecord> input = List.of(
                TestRecords.avro(vehicle1, 0, 0),
                TestRecords.json(vehicle1, 0, 1),
                TestRecords.avro(vehicle1Later, 0, 2),
                TestRecords.avro(vehicle3, 0, 3),
                TestRecords.raw("garbage".getBytes(StandardCharsets.US_ASCII), "VH-9", 0, 4),
                TestRecords.avro(vehicle2, 1, 0),
                TestRecords.avro(vehicle2SameTimeOtherPlace, 1, 1),
                TestRecords.json(vehicle2Later, 1, 2),
                TestRecords.avro(nanLatitude, 1, 3),
                TestRecords.raw(null, "VH-9", 1, 4));

        JobExecutionResult result = run(input);

        List<String> expectedIdentities = List.of(
                identity(vehicle1),
                identity(vehicle1Later),
                identity(vehicle2),
                identity(vehicle2Later),
                identity(vehicle3));
        assertThat(table.values())
                .extracting(FleetPipelineJobTest::identity)
                .containsExactlyInAnyOrderElementsOf(expectedIdentities);
        assertThat(currentState.values()).containsExactlyInAnyOrderElementsOf(table.values());
        assertThat(deadLetters.values())
                .extracting(RejectedRecord::reason, RejectedRecord::sourcePartition, RejectedRecord::sourceOffset)
                .containsExactlyInAnyOrder(
                        tuple(RejectionReason.MALFORMED_PAYLOAD, 0, 4L),
                        tuple(RejectionReason.INVALID_COORDINATES, 1, 3L),
                        tuple(RejectionReason.MALFORMED_PAYLOAD, 1, 4L));

        assertThat(counter(result, "recordsRead")).isEqualTo(10);
        assertThat(counter(result, "recordsDecoded")).isEqualTo(7);
        assertThat(counter(result, "recordsRejected")).isEqualTo(3);
        assertThat(counter(result, "resendsDropped")).isEqualTo(2);
        assertThat(counter(result, "conflictingResendsDropped")).isEqualTo(1);
    }

    private JobExecutionResult run(List<RawRecord> input) throws Exception {
        // Generic types (Kryo) are refused so that the pipeline's records must stay Flink POJOs.
        Configuration configuration = new Configuration();
        configuration.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        environment.setParallelism(PARALLELISM);
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
        DataGeneratorSource<RawRecord> source = new DataGeneratorSource<>(
                new FromElementsGeneratorFunction<>(type, input.toArray(RawRecord[]::new)), input.size(), type);
        new FleetPipelineJob(
                        source,
                        deadLetters,
                        currentState,
                        positions ->
                                positions.sinkTo(table).name("collect-table").uid("collect-table"),
                        Duration.ofHours(1))
                .addTo(environment);
        return environment.execute(FleetPipelineJob.JOB_NAME);
    }

    private static long counter(JobExecutionResult result, String name) {
        Map<String, Metric> metrics = METRICS.findMetrics(result.getJobID(), name);
        assertThat(metrics).as("metric %s", name).isNotEmpty();
        return metrics.values().stream()
                .mapToLong(metric -> ((Counter) metric).getCount())
                .sum();
    }

    private static String identity(Position position) {
        return position.vehicleId() + "@" + position.eventTime();
    }

    private static String identity(IngestedPosition position) {
        return identity(position.position());
    }
}
