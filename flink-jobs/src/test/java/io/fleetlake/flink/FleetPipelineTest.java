package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.functions.DecodePositions;
import io.fleetlake.flink.functions.DeduplicateResends;
import io.fleetlake.flink.functions.RejectImplausibleJumps;
import io.fleetlake.flink.functions.Rejections;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.flink.runtime.RetainedCheckpoints;
import io.fleetlake.flink.sinks.CurrentStateStore;
import io.fleetlake.flink.sinks.RedisCurrentStateSink;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.sources.RouteSource;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.validation.ValidationRules;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner on a real local MiniCluster: health check, loopback binding, retained checkpoint and resume, refusal of a
 * checkpoint it cannot map.
 */
class FleetPipelineTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Nothing listens on port 9 of the loopback: every poll fails, which must not disturb the job. */
    private static final URI UNREACHABLE_PLANNING_API = URI.create("http://127.0.0.1:9");

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path checkpoints;

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

    @Test
    void refusesACheckpointWithStateOfTheRetiredDeduplicationUidAndSaysWhatToDo() throws Exception {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(
                ClusterConfiguration.create(config(freePort()), checkpoints, Optional.empty()));
        addReleaseBeforeTheEnrichment(environment, TestRecords.RULES, Duration.ofHours(1));
        JobClient previousRelease = environment.executeAsync(PipelineMetricNames.JOB_NAME);
        try {
            // A few checkpoints in, the de-duplication has seen positions: its state is in the checkpoint.
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
            assertThatThrownBy(current::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("if checkpoint " + retained + " cannot be restored")
                    .hasMessageContaining("move it out of the checkpoint directory")
                    .satisfies(failure -> assertThat(ExceptionUtils.findThrowableWithMessage(
                                    failure, "the operator is not available in the new program"))
                            .as("Flink's reason, which names --allowNonRestoredState")
                            .hasValueSatisfying(
                                    reason -> assertThat(reason.getMessage()).contains("allowNonRestoredState")));
        }
        assertThat(RetainedCheckpoints.newest(checkpoints))
                .as("nothing was restored, so nothing new was checkpointed")
                .contains(retained);
    }

    private FleetPipelineConfig config(int restPort) {
        return FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_DIR, checkpoints.toString(),
                FleetPipelineConfig.CHECKPOINT_INTERVAL, "300ms",
                FleetPipelineConfig.REST_PORT, Integer.toString(restPort))));
    }

    /**
     * The topology of the release before the enrichment, windows and watermarks, with the uids it had: the operators
     * whose state a running stack has in its checkpoints. Its de-duplication kept a per-vehicle map under the uid
     * {@code deduplicate-resends}; the current operator under that uid stands for it, since only the uid and the
     * presence of keyed state decide whether a restore maps it.
     */
    private static void addReleaseBeforeTheEnrichment(
            StreamExecutionEnvironment environment, ValidationRules rules, Duration ttl) {
        SingleOutputStreamOperator<IngestedPosition> decoded = environment
                .fromSource(positions(), WatermarkStrategy.noWatermarks(), "raw-positions-source")
                .uid("raw-positions-source")
                .process(new DecodePositions(rules))
                .name("decode-positions")
                .uid("decode-positions");
        SingleOutputStreamOperator<IngestedPosition> unique = decoded.keyBy(IngestedPosition::vehicleId, Types.STRING)
                .transform("deduplicate-resends", decoded.getType(), new DeduplicateResends(ttl))
                .uid("deduplicate-resends");
        SingleOutputStreamOperator<IngestedPosition> accepted = DataStreamUtils.reinterpretAsKeyedStream(
                        unique, IngestedPosition::vehicleId, Types.STRING)
                .process(new RejectImplausibleJumps(rules, ttl))
                .name("reject-implausible-jumps")
                .uid("reject-implausible-jumps");
        DataStream<RejectedRecord> rejected = decoded.getSideOutput(Rejections.SIDE_OUTPUT)
                .union(unique.getSideOutput(Rejections.SIDE_OUTPUT), accepted.getSideOutput(Rejections.SIDE_OUTPUT));
        rejected.sinkTo(new DiscardingSink<>()).name("dead-letter-sink").uid("dead-letter-sink");
        rejected.sinkTo(new DiscardingSink<>()).name("discard-rejected-table").uid("discard-rejected-table");
        accepted.sinkTo(new DiscardingSink<>()).name("redis-current-state").uid("redis-current-state");
        accepted.sinkTo(new DiscardingSink<>()).name("discard-table").uid("discard-table");
    }

    /** An endless, slow stream of positions. */
    private static DataGeneratorSource<RawRecord> positions() {
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
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
        return FleetPipelineJob.builder()
                .source(positions())
                .routeSource(RouteSource.create(UNREACHABLE_PLANNING_API, config.enrichment()))
                .deadLetterSink(new DiscardingSink<>())
                .rejectedTableSink(rejections -> rejections
                        .sinkTo(new DiscardingSink<>())
                        .name("discard-rejected-table")
                        .uid("discard-rejected-table"))
                .currentStateSink(RedisCurrentStateSink.create(
                        FleetPipelineTest::acceptingStore, RedisCurrentStateSink.Settings.DEFAULT))
                .positionTableSink(positions -> positions
                        .sinkTo(new DiscardingSink<>())
                        .name("discard-table")
                        .uid("discard-table"))
                .vehicleMinuteTableSink(minutes -> minutes.sinkTo(new DiscardingSink<>())
                        .name("discard-minutes")
                        .uid("discard-minutes"))
                .latePositionSink(new DiscardingSink<>())
                .validationRules(config.validationRules())
                .enrichment(config.enrichment())
                .stateTtl(config.dedupTtl())
                .maxOutOfOrderness(config.maxOutOfOrderness())
                .sourceIdleness(config.sourceIdleness())
                .allowedLateness(config.allowedLateness())
                .build();
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
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
