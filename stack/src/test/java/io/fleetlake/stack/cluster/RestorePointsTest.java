package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.rest.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.model.restore.RestoreRefusedException;
import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the next submission restores, with the JobManager, the checkpoint directory and the tables' history behind their
 * seams; the guard's own cases are {@code RestoreGuardTest}'s.
 */
class RestorePointsTest {
    private static final String PREVIOUS = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String EMBEDDED_JOB = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final RestorePoint FIRST_SAVEPOINT = new RestorePoint(
            "cccccccccccccccccccccccccccccccc",
            3,
            T0.minusSeconds(600),
            "s3://flink/savepoints/savepoint-first",
            PipelineMode.CLUSTER,
            RestorePoint.Kind.SAVEPOINT);

    @TempDir
    Path directory;

    /** What the fake JobManager remembers, by job id. */
    private final Map<String, CheckpointStatistics> jobManager = new HashMap<>();
    /** The newest retained checkpoint in the fake checkpoint directory, by job id. */
    private final Map<String, RestorePoint> retained = new HashMap<>();
    /** The Flink commits of the fake tables. */
    private final List<FlinkCommit> commits = new ArrayList<>();

    @Test
    void theFirstJobOnANewDataFolderStartsFromTheKafkaOffsets() throws IOException {
        assertThat(restorePoints().next()).isEmpty();
    }

    @Test
    void aJobTheJobManagerStillKnowsResumesFromItsNewestSnapshotNotFromWhatItWasStartedFrom() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));
        jobManager.put(
                PREVIOUS,
                new CheckpointStatistics(
                        7,
                        Optional.of(snapshot(21, "s3://flink/checkpoints/" + PREVIOUS + "/chk-21", 100)),
                        Optional.of(snapshot(22, "s3://flink/savepoints/savepoint-stop", 110)),
                        Optional.of(FIRST_SAVEPOINT.location())));
        commits.add(commit(PREVIOUS, 22, 111));

        assertThat(restorePoints().next())
                .hasValue(new RestorePoint(
                        PREVIOUS,
                        22,
                        T0.plusSeconds(110),
                        "s3://flink/savepoints/savepoint-stop",
                        PipelineMode.CLUSTER,
                        RestorePoint.Kind.SAVEPOINT));
    }

    @Test
    void afterAJobManagerRestartTheSavepointTheJobWasStoppedWithWinsOverItsCheckpoints() throws IOException {
        files().recordSubmitted(submitted(Optional.empty()));
        files().recordFinalSavepoint(PREVIOUS, snapshot(21, "s3://flink/savepoints/savepoint-stop", 110));
        retained.put(PREVIOUS, checkpoint(PREVIOUS, 20, 100));
        commits.add(commit(PREVIOUS, 21, 111));

        assertThat(restorePoints().next().map(RestorePoint::location)).hasValue("s3://flink/savepoints/savepoint-stop");
    }

    @Test
    void afterAJobManagerCrashTheNewestRetainedCheckpointIsRestored() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));
        files().recordFinalSavepoint(
                        "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", snapshot(9, "s3://flink/savepoints/of-another-job", 50));
        retained.put(PREVIOUS, checkpoint(PREVIOUS, 20, 100));
        commits.add(commit(PREVIOUS, 20, 101));

        assertThat(restorePoints().next().map(RestorePoint::location))
                .hasValue("s3://flink/checkpoints/" + PREVIOUS + "/chk-20");
    }

    @Test
    void aJobThatLeftNoSnapshotResumesFromWhatItWasStartedFrom() throws IOException {
        files().recordSubmitted(submitted(Optional.of(FIRST_SAVEPOINT)));

        assertThat(restorePoints().next()).hasValue(FIRST_SAVEPOINT);

        jobManager.put(
                PREVIOUS,
                new CheckpointStatistics(
                        0, Optional.empty(), Optional.empty(), Optional.of(FIRST_SAVEPOINT.location())));
        assertThat(restorePoints().next()).hasValue(FIRST_SAVEPOINT);
    }

    /** The first start in cluster mode after the embedded pipeline was stopped with Ctrl-C. */
    @Test
    void theEmbeddedPipelinesHandoverSavepointIsWhereTheFirstClusterJobStarts() throws IOException {
        RestorePoint embeddedHandover = new RestorePoint(
                EMBEDDED_JOB,
                15,
                T0.plusSeconds(150),
                "file:" + directory.resolve("handover/savepoint-eeeeee-1"),
                PipelineMode.EMBEDDED,
                RestorePoint.Kind.SAVEPOINT);
        handover().record(embeddedHandover);
        commits.add(embeddedCommit(EMBEDDED_JOB, 15, 151));

        assertThat(restorePoints().next()).hasValue(embeddedHandover);
    }

    /**
     * The embedded pipeline ran after the cluster's job, and was stopped with Ctrl-C: its handover is newer than what
     * the cluster's job left, which the embedded job's commits overwrote.
     */
    @Test
    void aHandoverNewerThanThePreviousClusterJobWins() throws IOException {
        files().recordSubmitted(submitted(Optional.empty()));
        retained.put(PREVIOUS, checkpoint(PREVIOUS, 20, 100));
        RestorePoint embeddedHandover = new RestorePoint(
                EMBEDDED_JOB,
                31,
                T0.plusSeconds(300),
                "file:" + directory.resolve("handover/savepoint-eeeeee-2"),
                PipelineMode.EMBEDDED,
                RestorePoint.Kind.SAVEPOINT);
        handover().record(embeddedHandover);
        commits.addAll(List.of(commit(PREVIOUS, 20, 101), embeddedCommit(EMBEDDED_JOB, 31, 301)));

        assertThat(restorePoints().next()).hasValue(embeddedHandover);
    }

    /** The embedded pipeline crashed after the cluster's job: nothing of this mode or the handover is safe. */
    @Test
    void aStartAfterTheOtherModeCrashedIsRefused() throws IOException {
        files().recordSubmitted(submitted(Optional.empty()));
        retained.put(PREVIOUS, checkpoint(PREVIOUS, 20, 100));
        commits.addAll(List.of(commit(PREVIOUS, 20, 101), embeddedCommit(EMBEDDED_JOB, 40, 400)));

        assertThatThrownBy(() -> restorePoints().next())
                .isInstanceOf(RestoreRefusedException.class)
                .hasMessageStartingWith("Refusing to start the pipeline in cluster mode")
                .hasMessageContaining("checkpoint 20 of the cluster job " + PREVIOUS)
                .hasMessageContaining("./fleet up --pipeline-mode embedded")
                .hasMessageContaining(directory.resolve("handover").toString());

        assertThat(restorePoints(Optional.of(EMBEDDED_JOB)).next())
                .as("accepted: from the offsets")
                .isEmpty();
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

    /** A final savepoint whose path holds a space, and a line of an earlier release without the checkpoint id. */
    @Test
    void finalSavepointsAreReadBackWithTheirCheckpointIdAndTimeAndOldLinesAreNotOffered() throws IOException {
        Snapshot stop = snapshot(21, "file:/data with space/handover/savepoint-aaaaaa-1", 110);
        Files.writeString(
                directory.resolve(ClusterJobFiles.FINAL_SAVEPOINTS_FILE),
                "dddddddddddddddddddddddddddddddd s3://flink/savepoints/savepoint-old\n");

        RestorePoint recorded = files().recordFinalSavepoint(PREVIOUS, stop);

        assertThat(files().finalSavepoint(PREVIOUS)).hasValue(recorded);
        assertThat(recorded.location()).isEqualTo(stop.path());
        assertThat(recorded.checkpointId()).isEqualTo(21);
        assertThat(recorded.completedAt()).isEqualTo(T0.plusSeconds(110));
        assertThat(files().finalSavepoint("dddddddddddddddddddddddddddddddd")).isEmpty();
    }

    private RestorePoints restorePoints() {
        return restorePoints(Optional.empty());
    }

    private RestorePoints restorePoints(Optional<String> acceptedJob) {
        return new RestorePoints(
                jobId -> Optional.ofNullable(jobManager.get(jobId)),
                files(),
                jobId -> Optional.ofNullable(retained.get(jobId)),
                handover(),
                () -> List.copyOf(commits),
                acceptedJob);
    }

    private ClusterJobFiles files() {
        return new ClusterJobFiles(directory);
    }

    private HandoverSavepoint handover() {
        return new HandoverSavepoint(directory.resolve("handover"));
    }

    private static SubmittedJob submitted(Optional<RestorePoint> restoredFrom) {
        return SubmittedJob.of(PREVIOUS, restoredFrom, 2, T0);
    }

    private static Snapshot snapshot(long id, String path, long second) {
        return new Snapshot(
                id, path, 10, 100, Duration.ofMillis(50), T0.plusSeconds(second).toEpochMilli());
    }

    private static RestorePoint checkpoint(String job, long id, long second) {
        return new RestorePoint(
                job,
                id,
                T0.plusSeconds(second),
                "s3://flink/checkpoints/" + job + "/chk-" + id,
                PipelineMode.CLUSTER,
                RestorePoint.Kind.CHECKPOINT);
    }

    private static FlinkCommit commit(String job, long checkpoint, long second) {
        return new FlinkCommit(
                "positions", second, job, checkpoint, T0.plusSeconds(second), Optional.of(PipelineMode.CLUSTER));
    }

    private static FlinkCommit embeddedCommit(String job, long checkpoint, long second) {
        return new FlinkCommit(
                "positions", second, job, checkpoint, T0.plusSeconds(second), Optional.of(PipelineMode.EMBEDDED));
    }
}
