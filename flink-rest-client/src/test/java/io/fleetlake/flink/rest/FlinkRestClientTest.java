package io.fleetlake.flink.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.flink.rest.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
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

    /** The savepoint a stop returned, found with its id and time in the latest savepoint or the recent history. */
    @Test
    void aStoppedJobsSavepointIsFoundWithItsIdAndCompletionTime() throws Exception {
        String statistics =
                """
                {"latest": {"savepoint": {"id": 41, "status": "COMPLETED", "external_path": "file:/h/savepoint-b",
                   "latest_ack_timestamp": 2000, "state_size": 10, "end_to_end_duration": 5}},
                 "history": [
                   {"id": 41, "status": "COMPLETED", "is_savepoint": true, "external_path": "file:/h/savepoint-b",
                    "latest_ack_timestamp": 2000},
                   {"id": 37, "status": "COMPLETED", "is_savepoint": true, "external_path": "file:/h/savepoint-a",
                    "latest_ack_timestamp": 1000, "state_size": 7},
                   {"id": 36, "status": "FAILED", "is_savepoint": true, "external_path": "file:/h/savepoint-x"}]}
                """;

        assertThat(FlinkRestClient.savepointAt(JSON.readTree(statistics), "file:/h/savepoint-b"))
                .hasValueSatisfying(snapshot -> {
                    assertThat(snapshot.id()).isEqualTo(41);
                    assertThat(snapshot.completedAt()).isEqualTo(2000);
                });
        assertThat(FlinkRestClient.savepointAt(JSON.readTree(statistics), "file:/h/savepoint-a"))
                .hasValueSatisfying(snapshot -> assertThat(snapshot.id()).isEqualTo(37));
        assertThat(FlinkRestClient.savepointAt(JSON.readTree(statistics), "file:/h/savepoint-x"))
                .as("a failed one")
                .isEmpty();
        assertThat(FlinkRestClient.savepointAt(JSON.readTree("{}"), "file:/h/savepoint-b"))
                .as("not listed yet")
                .isEmpty();
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
