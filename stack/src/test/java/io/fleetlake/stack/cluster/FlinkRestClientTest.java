package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.stack.cluster.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.stack.cluster.FlinkRestClient.Snapshot;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FlinkRestClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFirstSubmissionRestoresNothingAndClaimsAllState() throws Exception {
        String body = JSON.writeValueAsString(FlinkRestClient.runRequest(
                List.of("--config", "/data/conf/pipeline with space.properties"), 2, Optional.empty()));

        assertThat(JSON.readTree(body))
                .isEqualTo(JSON.readTree("{\"programArgsList\":[\"--config\","
                        + "\"/data/conf/pipeline with space.properties\"],\"parallelism\":2,"
                        + "\"allowNonRestoredState\":false}"));
    }

    @Test
    void aRestoreIsAnArgumentOfThatSubmissionOnly() throws Exception {
        String body = JSON.writeValueAsString(FlinkRestClient.runRequest(
                List.of("--config", "pipeline.properties"),
                4,
                Optional.of("s3://flink/savepoints/savepoint-ab12-cd34")));

        assertThat(JSON.readTree(body))
                .isEqualTo(JSON.readTree("{\"programArgsList\":[\"--config\",\"pipeline.properties\"],"
                        + "\"parallelism\":4,\"savepointPath\":\"s3://flink/savepoints/savepoint-ab12-cd34\","
                        + "\"allowNonRestoredState\":false}"));
    }

    /** Canonical, so that the embedded pipeline's heap state backend restores what the cluster's RocksDB wrote. */
    @Test
    void aStopTakesACanonicalSavepointWithoutDraining() throws Exception {
        assertThat(JSON.readTree(JSON.writeValueAsString(FlinkRestClient.stopRequest("file:///data/handover/"))))
                .isEqualTo(JSON.readTree("{\"targetDirectory\":\"file:///data/handover/\",\"drain\":false,"
                        + "\"formatType\":\"CANONICAL\"}"));
    }

    @Test
    void aParallelismBelowOneIsRefused() {
        assertThatThrownBy(() -> FlinkRestClient.runRequest(List.of(), 0, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The parallelism must be at least 1, got 0");
    }

    @Test
    void flinkErrorsAreShortenedToTheExceptionAndItsCauses() {
        String error = "org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.\n"
                + "\tat org.apache.flink.runtime.webmonitor.handlers.JarRunHandler.lambda$handleRequest$1(Jar.java:1)\n"
                + "Caused by: java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint s3://x\n"
                + "\tat org.apache.flink.runtime.checkpoint.Checkpoints.loadAndValidateCheckpoint(C.java:2)\n";

        assertThat(FlinkRestClient.causes(error))
                .isEqualTo("org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application."
                        + " / Caused by: java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint"
                        + " s3://x");
    }

    @Test
    void checkpointsAndSavepointsShareOneCounterSoTheHigherIdIsTheNewest() {
        Snapshot checkpoint = snapshot(12, "s3://flink/checkpoints/job/chk-12");
        Snapshot savepoint = snapshot(9, "s3://flink/savepoints/savepoint-1");
        Snapshot laterSavepoint = snapshot(13, "s3://flink/savepoints/savepoint-2");

        assertThat(new CheckpointStatistics(3, Optional.of(checkpoint), Optional.of(savepoint), Optional.empty())
                        .newest())
                .contains(checkpoint);
        assertThat(new CheckpointStatistics(3, Optional.of(checkpoint), Optional.of(laterSavepoint), Optional.empty())
                        .newest())
                .contains(laterSavepoint);
        assertThat(new CheckpointStatistics(0, Optional.empty(), Optional.empty(), Optional.empty()).newest())
                .isEmpty();
    }

    private static Snapshot snapshot(long id, String path) {
        return new Snapshot(id, path, 10, 100, Duration.ofMillis(50), 1L);
    }
}
