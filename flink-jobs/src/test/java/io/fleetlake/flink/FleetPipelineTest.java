package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.process.FreePorts;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.config.HandoverConfig;
import io.fleetlake.flink.functions.DecodePositions;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.flink.runtime.CommitHistory;
import io.fleetlake.flink.runtime.RetainedCheckpoints;
import io.fleetlake.flink.sinks.CurrentStateStore;
import io.fleetlake.flink.sinks.RedisCurrentStateSink;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.sources.RouteSource;
import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.model.restore.RestoreRefusedException;
import io.fleetlake.validation.ValidationRules;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner on a real local MiniCluster: health check, loopback binding, retained checkpoint and resume, restore of an
 * earlier release's checkpoint, restarts with backoff and their count.
 */
class FleetPipelineTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Nothing listens on port 9 of the loopback: every poll fails, which must not disturb the job. */
    private static final URI UNREACHABLE_PLANNING_API = URI.create("http://127.0.0.1:9");

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path checkpoints;

    @TempDir
    Path handover;

    @Test
    void runsHealthyAndResumesFromItsRetainedCheckpoint() throws Exception {
        Path firstCheckpoint;
        FleetPipeline first = new FleetPipeline(config(freePort()), FleetPipelineTest::job);
        try {
            first.start();

            JsonNode overview = get(first, "/jobs/overview").get("jobs");
            assertThat(overview).hasSize(1);
            assertThat(overview.get(0).get("name").asText()).isEqualTo(PipelineMetricNames.JOB_NAME);
            assertThat(overview.get(0).get("state").asText()).isEqualTo("RUNNING");
            if (ListeningSockets.available()) {
                assertThat(ListeningSockets.ofThisProcess()).isNotEmpty().allSatisfy(address -> assertThat(
                                ListeningSockets.isLoopback(address))
                        .as("listening on %s", address)
                        .isTrue());
            }

            firstCheckpoint = await().atMost(TIMEOUT)
                    .until(() -> RetainedCheckpoints.newest(checkpoints), Optional::isPresent)
                    .orElseThrow();
        } finally {
            first.close();
        }
        assertThat(first.awaitTermination()).isEqualTo(JobStatus.CANCELED);
        Path retained = RetainedCheckpoints.newest(checkpoints).orElseThrow();
        assertThat(retained.getParent()).isEqualTo(firstCheckpoint.getParent());

        try (FleetPipeline second = new FleetPipeline(config(freePort()), FleetPipelineTest::job)) {
            second.start();

            JsonNode restored = get(second, "/jobs/" + second.jobId() + "/checkpoints")
                    .path("latest")
                    .path("restored");
            assertThat(Path.of(URI.create(restored.path("external_path").asText())))
                    .isEqualTo(retained);
            Path resumed = await().atMost(TIMEOUT)
                    .until(() -> RetainedCheckpoints.newest(checkpoints), newest -> newest.filter(
                                    path -> !path.getParent().equals(retained.getParent()))
                            .isPresent())
                    .orElseThrow();
            assertThat(checkpointNumber(resumed)).isGreaterThan(checkpointNumber(retained));
        }
    }

    /**
     * A graceful stop leaves a savepoint in the handover folder, in the canonical format either mode restores, recorded
     * with its job, checkpoint id and mode; the next start prefers it to the last checkpoint before it, which is older.
     */
    @Test
    void stopsWithASavepointInTheHandoverFolderThatTheNextStartRestores() throws Exception {
        FleetPipelineConfig config = config(freePort(), Map.of(HandoverConfig.DIRECTORY, handover.toString()));
        FleetPipeline first = new FleetPipeline(config, FleetPipelineTest::job);
        String firstJob;
        RestorePoint checkpointWhileRunning;
        try {
            first.start();
            firstJob = first.jobId().toString();
            checkpointWhileRunning = await().atMost(TIMEOUT)
                    .until(() -> RetainedCheckpoints.newestRestorePoint(checkpoints), Optional::isPresent)
                    .orElseThrow();
        } finally {
            first.close();
        }
        assertThat(first.awaitTermination()).as("stopped with a savepoint").isEqualTo(JobStatus.FINISHED);
        RestorePoint savepoint = new HandoverSavepoint(handover).read().orElseThrow();
        assertThat(savepoint.jobId()).isEqualTo(firstJob);
        assertThat(savepoint.mode()).isEqualTo(PipelineMode.EMBEDDED);
        assertThat(savepoint.kind()).isEqualTo(RestorePoint.Kind.SAVEPOINT);
        assertThat(savepoint.checkpointId())
                .as("checkpoints and savepoints share one counter")
                .isGreaterThan(checkpointWhileRunning.checkpointId());
        assertThat(Path.of(URI.create(savepoint.location())).getParent()).isEqualTo(handover);

        try (FleetPipeline second = new FleetPipeline(
                config(freePort(), Map.of(HandoverConfig.DIRECTORY, handover.toString())), FleetPipelineTest::job)) {
            second.start();

            assertThat(restoredFrom(second)).isEqualTo(Path.of(URI.create(savepoint.location())));
        }
    }

    /**
     * The tables hold a commit of another job after the only restore point (the pipeline ran in the other mode since):
     * the start is refused before any job exists, with what to run; naming that job accepts a start from the offsets.
     */
    @Test
    void refusesARestorePointAfterWhichAnotherJobCommittedUnlessThatJobIsNamed() throws Exception {
        FleetPipeline first = new FleetPipeline(config(freePort()), FleetPipelineTest::job);
        try {
            first.start();
            await().atMost(TIMEOUT).until(() -> RetainedCheckpoints.newest(checkpoints), Optional::isPresent);
        } finally {
            first.close();
        }
        first.awaitTermination();
        RestorePoint retained =
                RetainedCheckpoints.newestRestorePoint(checkpoints).orElseThrow();
        FlinkCommit clusterCommit = new FlinkCommit(
                "positions",
                1,
                "c0ffee00000000000000000000000001",
                9,
                retained.completedAt().plusSeconds(5),
                Optional.of(PipelineMode.CLUSTER));
        CommitHistory afterTheCheckpoint = () -> List.of(clusterCommit);
        int port = freePort();

        FleetPipeline refused = new FleetPipeline(config(port), FleetPipelineTest::job, afterTheCheckpoint);
        assertThatThrownBy(refused::start)
                .isInstanceOf(RestoreRefusedException.class)
                .hasMessageStartingWith("Refusing to start the pipeline in embedded mode")
                .hasMessageContaining(retained.describe())
                .hasMessageContaining("./fleet up --pipeline-mode cluster")
                .hasMessageContaining("pipeline.start-from-offsets-after-job=c0ffee00000000000000000000000001");
        assertThatThrownBy(refused::jobId).as("no job was submitted").isInstanceOf(IllegalStateException.class);

        try (FleetPipeline accepted = new FleetPipeline(
                config(port, Map.of("pipeline.start-from-offsets-after-job", clusterCommit.jobId())),
                FleetPipelineTest::job,
                afterTheCheckpoint)) {
            accepted.start();

            JsonNode restored = get(accepted, "/jobs/" + accepted.jobId() + "/checkpoints")
                    .path("latest")
                    .path("restored");
            assertThat(restored.hasNonNull("external_path"))
                    .as("started from the offsets, nothing restored: %s", restored)
                    .isFalse();
        }
    }

    /**
     * A checkpoint of the release before the vehicle operator holds keyed state under the uids of the three operators it
     * replaced. The runner restores it with that state dropped (rather than refusing it, which would also lose the
     * source offsets and the Iceberg commits pending in it) and every other operator's state restored.
     */
    @Test
    void restoresACheckpointOfTheReleaseBeforeWithTheRetiredOperatorsStateDropped() throws Exception {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                ClusterConfiguration.create(config(freePort()), checkpoints, Optional.empty()));
        addReleaseBeforeTheVehicleOperator(environment, TestRecords.RULES);
        JobClient previousRelease = environment.executeAsync(PipelineMetricNames.JOB_NAME);
        try {
            // A few checkpoints in, the retired operators have seen positions: their state is in the checkpoint.
            await().atMost(TIMEOUT).until(() -> RetainedCheckpoints.newest(checkpoints)
                    .filter(newest -> checkpointNumber(newest) >= 3)
                    .isPresent());
        } finally {
            previousRelease.cancel().get();
        }
        await().atMost(TIMEOUT)
                .until(() -> previousRelease.getJobExecutionResult().isDone());
        Path retained = RetainedCheckpoints.newest(checkpoints).orElseThrow();

        try (FleetPipeline current = new FleetPipeline(config(freePort()), FleetPipelineTest::job)) {
            current.start();

            JsonNode restored = get(current, "/jobs/" + current.jobId() + "/checkpoints")
                    .path("latest")
                    .path("restored");
            assertThat(Path.of(URI.create(restored.path("external_path").asText())))
                    .isEqualTo(retained);
            assertThat(restarts(current)).isZero();
        }
    }

    /**
     * A job that fails restarts after the configured backoff instead of failing for good, and the restart count is on
     * the REST API where {@code fleet verify} and the status command read it.
     */
    @Test
    void aFailingJobRestartsWithBackoffAndItsRestartsAreCounted() throws Exception {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_DIR,
                checkpoints.toString(),
                FleetPipelineConfig.CHECKPOINT_INTERVAL,
                "300ms",
                FleetPipelineConfig.REST_PORT,
                Integer.toString(freePort()),
                "pipeline.restart-initial-backoff",
                "100ms",
                "pipeline.restart-max-backoff",
                "200ms")));
        try (FleetPipeline pipeline = new FleetPipeline(config, FleetPipelineTest::failingJob)) {
            pipeline.start();

            await().atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(restarts(pipeline)).isGreaterThanOrEqualTo(2));
            assertThat(get(pipeline, "/jobs/" + pipeline.jobId()).path("state").asText())
                    .isIn("RUNNING", "RESTARTING", "INITIALIZING", "CREATED");
        }
    }

    private long restarts(FleetPipeline pipeline) throws Exception {
        JsonNode metrics =
                get(pipeline, "/jobs/" + pipeline.jobId() + "/metrics?get=" + PipelineMetricNames.NUM_RESTARTS);
        return metrics.isEmpty() ? 0 : metrics.get(0).path("value").asLong();
    }

    private FleetPipelineConfig config(int restPort) {
        return config(restPort, Map.of());
    }

    private FleetPipelineConfig config(int restPort, Map<String, String> more) {
        Map<String, String> values = new HashMap<>(more);
        values.put(FleetPipelineConfig.CHECKPOINT_DIR, checkpoints.toString());
        values.put(FleetPipelineConfig.CHECKPOINT_INTERVAL, "300ms");
        values.put(FleetPipelineConfig.REST_PORT, Integer.toString(restPort));
        return FleetPipelineConfig.from(ConfigSource.of(values));
    }

    private Path restoredFrom(FleetPipeline pipeline) throws Exception {
        JsonNode restored = get(pipeline, "/jobs/" + pipeline.jobId() + "/checkpoints")
                .path("latest")
                .path("restored");
        return Path.of(URI.create(restored.path("external_path").asText()));
    }

    /**
     * The uids of the release before the vehicle operator, with keyed state under the three it replaced; only the uid
     * and the presence of state decide whether a restore maps it, so a stand-in keeps a counter per vehicle.
     */
    private static void addReleaseBeforeTheVehicleOperator(
            StreamExecutionEnvironment environment, ValidationRules rules) {
        SingleOutputStreamOperator<IngestedPosition> decoded = environment
                .fromSource(positions(), WatermarkStrategy.noWatermarks(), "raw-positions-source")
                .uid("raw-positions-source")
                .process(new DecodePositions(rules), RecordSerializers.INGESTED_POSITION)
                .name("decode-positions")
                .uid("decode-positions");
        DataStream<IngestedPosition> retired = decoded;
        for (String uid : List.of("deduplicate-resends-by-fix", "reject-implausible-jumps", "enrich-positions")) {
            retired = retired.keyBy(IngestedPosition::vehicleId, Types.STRING)
                    .process(new CountPerVehicle(), RecordSerializers.INGESTED_POSITION)
                    .name(uid)
                    .uid(uid);
        }
        decoded.getSideOutput(Rejections.SIDE_OUTPUT)
                .sinkTo(new DiscardingSink<>())
                .name("dead-letter-sink")
                .uid("dead-letter-sink");
        retired.sinkTo(new DiscardingSink<>()).name("discard-table").uid("discard-table");
    }

    /** Keyed state under a retired uid. */
    private static final class CountPerVehicle
            extends KeyedProcessFunction<String, IngestedPosition, IngestedPosition> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext openContext) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(IngestedPosition position, Context context, Collector<IngestedPosition> out)
                throws Exception {
            Long seen = count.value();
            count.update(seen == null ? 1 : seen + 1);
            out.collect(position);
        }
    }

    /** A job whose source fails a moment after each start: a real fault, not a bad record. */
    private static FleetPipelineJob failingJob(FleetPipelineConfig config) {
        TypeInformation<RawRecord> type = RecordSerializers.RAW_RECORD;
        DataGeneratorSource<RawRecord> failing = new DataGeneratorSource<>(
                index -> {
                    // The first subtask fails on its sixth record (its range starts at 0), after every restart.
                    if (index % 1_000_000 == 5) {
                        throw new IllegalStateException("the test's source fails");
                    }
                    return TestRecords.avro(
                            TestRecords.position("VH-1", TestRecords.EVENT_TIME.plusSeconds(index % 1_000_000)),
                            0,
                            index);
                },
                Long.MAX_VALUE,
                RateLimiterStrategy.perSecond(20),
                type);
        return builder(config).source(failing).build();
    }

    /** An endless, slow stream of positions. */
    private static DataGeneratorSource<RawRecord> positions() {
        TypeInformation<RawRecord> type = RecordSerializers.RAW_RECORD;
        return new DataGeneratorSource<>(
                // The sequence is split across subtasks, so indexes reach 2^62: keep event times in range.
                index -> TestRecords.avro(
                        TestRecords.position("VH-" + index % 5, TestRecords.EVENT_TIME.plusSeconds(index % 1_000_000)),
                        0,
                        index),
                Long.MAX_VALUE,
                RateLimiterStrategy.perSecond(20),
                type);
    }

    /** An endless, slow stream of positions into sinks that discard, so that only the runner is under test. */
    private static FleetPipelineJob job(FleetPipelineConfig config) {
        return builder(config).source(positions()).build();
    }

    private static FleetPipelineJob.Builder builder(FleetPipelineConfig config) {
        return FleetPipelineJob.builder()
                .routeSource(RouteSource.create(UNREACHABLE_PLANNING_API, config.enrichment()))
                .deadLetterSink(new DiscardingSink<>())
                .rejectedTableSink(rejections -> rejections
                        .sinkTo(new DiscardingSink<>())
                        .name("discard-rejected-table")
                        .uid("discard-rejected-table"))
                .currentStateSink(RedisCurrentStateSink.create(
                        FleetPipelineTest::acceptingStore, RedisCurrentStateSink.Settings.DEFAULT))
                .positionTableSink(CollectingTable.of(new CollectingSink<>(), EnrichedPosition.class, "discard-table"))
                .vehicleMinuteTableSink(minutes -> minutes.sinkTo(new DiscardingSink<>())
                        .name("discard-minutes")
                        .uid("discard-minutes"))
                .latePositionSink(new DiscardingSink<>())
                .validationRules(config.validationRules())
                .enrichment(config.enrichment())
                .stateTtl(config.dedupTtl())
                .maxOutOfOrderness(config.maxOutOfOrderness())
                .sourceIdleness(config.sourceIdleness())
                .allowedLateness(config.allowedLateness());
    }

    /**
     * A current-state store that takes every update: the stateful Redis sink runs in the job, so that the restore of
     * a checkpoint of the release before (when the sink had no state) is covered.
     */
    private static CurrentStateStore acceptingStore() {
        return new CurrentStateStore() {
            @Override
            public List<Boolean> applyNewerWins(List<VehicleState> updates, Instant updatedAt) {
                return updates.stream().map(update -> true).toList();
            }

            @Override
            public void close() {}
        };
    }

    private JsonNode get(FleetPipeline pipeline, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://" + pipeline.restHost() + ":" + pipeline.restPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("GET %s: %s", path, response.body())
                .isEqualTo(200);
        return json.readTree(response.body());
    }

    private static long checkpointNumber(Path checkpoint) {
        return Long.parseLong(checkpoint.getFileName().toString().substring("chk-".length()));
    }

    private static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }
}
