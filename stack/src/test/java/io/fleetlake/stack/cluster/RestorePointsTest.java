package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import io.fleetlake.stack.cluster.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.stack.cluster.FlinkRestClient.Snapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the next submission restores, with the JobManager and the checkpoint directory behind their seams. */
class RestorePointsTest {
    private static final String PREVIOUS = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String FIRST_SAVEPOINT = "s3://flink/savepoints/savepoint-first";

    @TempDir
    Path directory;

    /** What the fake JobManager remembers, by job id. */
    private final Map<String, CheckpointStatistics> jobManager = new HashMap<>();
    /** The newest retained checkpoint in the fake checkpoint directory, by job id. */
    private final Map<String, String> retained = new HashMap<>();

    @Test
    void theFirstJobStartsFromTheKafkaOffsets() throws IOException {
        assertThat(restorePoints().next()).isEmpty();
    }

    @Test
    void aJobTheJobManagerStillKnowsResumesFromItsNewestSnapshotNotFromWhatItWasStartedFrom() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));
        jobManager.put(
                PREVIOUS,
                new CheckpointStatistics(
                        7,
                        Optional.of(snapshot(21, "s3://flink/checkpoints/" + PREVIOUS + "/chk-21")),
                        Optional.of(snapshot(22, "s3://flink/savepoints/savepoint-stop")),
                        Optional.of(FIRST_SAVEPOINT)));

        assertThat(restorePoints().next()).contains("s3://flink/savepoints/savepoint-stop");
    }

    @Test
    void afterAJobManagerRestartTheSavepointTheJobWasStoppedWithWinsOverItsCheckpoints() throws IOException {
        files().recordSubmitted(submitted(Optional.empty()));
        files().recordFinalSavepoint(PREVIOUS, "s3://flink/savepoints/savepoint-stop");
        retained.put(PREVIOUS, "s3://flink/checkpoints/" + PREVIOUS + "/chk-20");

        assertThat(restorePoints().next()).contains("s3://flink/savepoints/savepoint-stop");
    }

    @Test
    void afterAJobManagerCrashTheNewestRetainedCheckpointIsRestored() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));
        files().recordFinalSavepoint("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "s3://flink/savepoints/of-another-job");
        retained.put(PREVIOUS, "s3://flink/checkpoints/" + PREVIOUS + "/chk-20");

        assertThat(restorePoints().next()).contains("s3://flink/checkpoints/" + PREVIOUS + "/chk-20");
    }

    @Test
    void aJobThatLeftNoSnapshotResumesFromWhatItWasStartedFrom() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));

        assertThat(restorePoints().next()).contains(FIRST_SAVEPOINT);

        jobManager.put(
                PREVIOUS,
                new CheckpointStatistics(0, Optional.empty(), Optional.empty(), Optional.of(FIRST_SAVEPOINT)));
        assertThat(restorePoints().next()).contains(FIRST_SAVEPOINT);
    }

    @Test
    void theRecordOfASubmissionAndTheRequestedParallelismSurviveARestartOfTheLauncher() {
        SubmittedJob job = submitted(Optional.of(FIRST_SAVEPOINT));
        files().recordSubmitted(job);
        files().requestParallelism(4);

        ClusterJobFiles reread = new ClusterJobFiles(directory);
        assertThat(reread.lastSubmitted()).contains(job);
        assertThat(reread.requestedParallelism()).hasValue(4);
        assertThat(reread.finalSavepoint(PREVIOUS)).isEmpty();
    }

    private RestorePoints restorePoints() {
        return new RestorePoints(
                jobId -> Optional.ofNullable(jobManager.get(jobId)),
                files(),
                jobId -> Optional.ofNullable(retained.get(jobId)));
    }

    private ClusterJobFiles files() {
        return new ClusterJobFiles(directory);
    }

    private static SubmittedJob submitted(Optional<String> restoredFrom) {
        return new SubmittedJob(PREVIOUS, restoredFrom, 2, Instant.parse("2026-12-01T10:00:00Z"));
    }

    private static Snapshot snapshot(long id, String path) {
        return new Snapshot(id, path, 10, 100, Duration.ofMillis(50), 1L);
    }
}
