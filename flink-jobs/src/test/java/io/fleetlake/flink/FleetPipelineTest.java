package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.runtime.RetainedCheckpoints;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner on a real local MiniCluster: health check, loopback binding, retained checkpoint and resume. */
class FleetPipelineTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

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
            assertThat(overview.get(0).get("name").asText()).isEqualTo(FleetPipelineJob.JOB_NAME);
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

    private FleetPipelineConfig config(int restPort) {
        return FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_DIR, checkpoints.toString(),
                FleetPipelineConfig.CHECKPOINT_INTERVAL, "300ms",
                FleetPipelineConfig.REST_PORT, Integer.toString(restPort))));
    }

    /** An endless, slow stream of positions into sinks that discard, so that only the runner is under test. */
    private static FleetPipelineJob job(FleetPipelineConfig config) {
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
        DataGeneratorSource<RawRecord> source = new DataGeneratorSource<>(
                // The sequence is split across subtasks, so indexes reach 2^62: keep event times in range.
                index -> TestRecords.avro(
                        TestRecords.position("VH-" + index % 5, TestRecords.EVENT_TIME.plusSeconds(index % 1_000_000)),
                        0,
                        index),
                Long.MAX_VALUE,
                RateLimiterStrategy.perSecond(20),
                type);
        return new FleetPipelineJob(
                source,
                new DiscardingSink<>(),
                rejections -> rejections
                        .sinkTo(new DiscardingSink<>())
                        .name("discard-rejected-table")
                        .uid("discard-rejected-table"),
                new DiscardingSink<>(),
                positions -> positions
                        .sinkTo(new DiscardingSink<>())
                        .name("discard-table")
                        .uid("discard-table"),
                config.validationRules(),
                config.dedupTtl());
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
