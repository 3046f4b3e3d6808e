package io.fleetlake.model.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestoreDecision.Outcome;
import io.fleetlake.model.restore.RestorePoint.Kind;
import io.fleetlake.model.restore.StaleRestorePoint.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every case of the restore guard, on the histories a mode switch, a crash, a failover and a rescale leave. Job ids
 * are Flink's 32 hex digits in production; short names keep the cases readable.
 */
class RestoreGuardTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");
    private static final String EMBEDDED_JOB = "e1";
    private static final String CLUSTER_JOB = "c1";
    private static final String HANDOVER = "/data/handover";

    @Test
    void aNewDataFolderStartsFreshFromTheCommittedOffsets() {
        RestoreDecision decision = decide(PipelineMode.EMBEDDED, List.of(), List.of(), Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.START_FRESH);
        assertThat(decision.restorePoint()).isEmpty();
        assertThat(decision.lastCommit()).isEmpty();
    }

    @Test
    void theNewestCheckpointOfTheJobThatCommittedLastIsRestored() {
        RestorePoint newest = checkpoint(EMBEDDED_JOB, 12, 120, PipelineMode.EMBEDDED);
        List<FlinkCommit> commits = List.of(
                commit(EMBEDDED_JOB, 11, 111, PipelineMode.EMBEDDED),
                commit(EMBEDDED_JOB, 12, 121, PipelineMode.EMBEDDED));

        RestoreDecision decision = decide(PipelineMode.EMBEDDED, List.of(newest), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.RESTORE);
        assertThat(decision.requireRestorePoint()).isEqualTo(newest);
        assertThat(decision.stale()).isEmpty();
    }

    /** The job failed after its checkpoint completed and before its committer committed it: the restore commits it. */
    @Test
    void aRestorePointAheadOfItsJobsLastCommitIsSafe() {
        RestorePoint ahead = checkpoint(EMBEDDED_JOB, 13, 130, PipelineMode.EMBEDDED);
        List<FlinkCommit> commits = List.of(commit(EMBEDDED_JOB, 12, 121, PipelineMode.EMBEDDED));

        assertThat(RestoreGuard.staleness(ahead, commits)).isEmpty();
        assertThat(decide(PipelineMode.EMBEDDED, List.of(ahead), commits, Optional.empty())
                        .outcome())
                .isEqualTo(Outcome.RESTORE);
    }

    /** A job restored from the handover savepoint of another job: that job's commits all came before the restore point. */
    @Test
    void commitsOfTheJobARestorePointDescendsFromAreBeforeItAndHarmless() {
        RestorePoint clusterCheckpoint = checkpoint(CLUSTER_JOB, 20, 300, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(
                commit(EMBEDDED_JOB, 14, 140, PipelineMode.EMBEDDED),
                commit(EMBEDDED_JOB, 15, 150, PipelineMode.EMBEDDED),
                commit(CLUSTER_JOB, 19, 290, PipelineMode.CLUSTER));

        RestoreDecision decision = decide(PipelineMode.CLUSTER, List.of(clusterCheckpoint), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.RESTORE);
        assertThat(decision.requireRestorePoint()).isEqualTo(clusterCheckpoint);
    }

    @Test
    void aRestorePointAfterWhichAnotherJobCommittedIsStale() {
        RestorePoint embeddedCheckpoint = checkpoint(EMBEDDED_JOB, 12, 120, PipelineMode.EMBEDDED);
        FlinkCommit clusterCommit = commit(CLUSTER_JOB, 30, 400, PipelineMode.CLUSTER);

        assertThat(RestoreGuard.staleness(
                        embeddedCheckpoint, List.of(commit(CLUSTER_JOB, 29, 390, PipelineMode.CLUSTER), clusterCommit)))
                .hasValue(new StaleRestorePoint(
                        embeddedCheckpoint, clusterCommit, Reason.ANOTHER_JOB_COMMITTED_AFTER_IT));
    }

    /** Restoring an older checkpoint of the same job (the newest one was lost) would write its later commits again. */
    @Test
    void aRestorePointOlderThanACommitOfItsOwnJobIsStale() {
        RestorePoint older = checkpoint(EMBEDDED_JOB, 10, 100, PipelineMode.EMBEDDED);
        FlinkCommit later = commit(EMBEDDED_JOB, 12, 121, PipelineMode.EMBEDDED);

        assertThat(RestoreGuard.staleness(older, List.of(commit(EMBEDDED_JOB, 10, 101, PipelineMode.EMBEDDED), later)))
                .hasValue(new StaleRestorePoint(older, later, Reason.ITS_JOB_COMMITTED_A_LATER_CHECKPOINT));
    }

    /**
     * The embedded pipeline was stopped with Ctrl-C (its savepoint is the handover) and its checkpoint folder still
     * holds the checkpoint before that savepoint: the savepoint is newer and is the one restored, in either mode.
     */
    @Test
    void theHandoverSavepointOfAGracefulStopIsRestoredInTheOtherMode() {
        RestorePoint lastCheckpoint = checkpoint(EMBEDDED_JOB, 14, 140, PipelineMode.EMBEDDED);
        RestorePoint handover = savepoint(EMBEDDED_JOB, 15, 150, PipelineMode.EMBEDDED);
        List<FlinkCommit> commits = List.of(
                commit(EMBEDDED_JOB, 14, 141, PipelineMode.EMBEDDED),
                commit(EMBEDDED_JOB, 15, 151, PipelineMode.EMBEDDED));

        RestoreDecision cluster =
                decide(PipelineMode.CLUSTER, List.of(lastCheckpoint, handover), commits, Optional.empty());
        RestoreDecision embedded =
                decide(PipelineMode.EMBEDDED, List.of(handover, lastCheckpoint), commits, Optional.empty());

        assertThat(cluster.requireRestorePoint()).isEqualTo(handover);
        assertThat(embedded.requireRestorePoint()).isEqualTo(handover);
    }

    /**
     * Back in embedded mode after the cluster was stopped with Ctrl-C: the embedded pipeline's own checkpoint is older
     * than the cluster's commits, the cluster's handover savepoint is not.
     */
    @Test
    void backInTheFirstModeTheOtherModesHandoverIsRestoredAndTheOwnCheckpointIsNot() {
        RestorePoint ownCheckpoint = checkpoint(EMBEDDED_JOB, 14, 140, PipelineMode.EMBEDDED);
        RestorePoint clusterHandover = savepoint(CLUSTER_JOB, 40, 500, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(
                commit(EMBEDDED_JOB, 15, 151, PipelineMode.EMBEDDED),
                commit(CLUSTER_JOB, 39, 491, PipelineMode.CLUSTER),
                commit(CLUSTER_JOB, 40, 501, PipelineMode.CLUSTER));

        RestoreDecision decision =
                decide(PipelineMode.EMBEDDED, List.of(ownCheckpoint, clusterHandover), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.RESTORE);
        assertThat(decision.requireRestorePoint()).isEqualTo(clusterHandover);
        assertThat(RestoreGuard.staleness(ownCheckpoint, commits))
                .hasValueSatisfying(
                        stale -> assertThat(stale.reason()).isEqualTo(Reason.ANOTHER_JOB_COMMITTED_AFTER_IT));
    }

    /**
     * Times only order the candidates; the rule still judges each. A checkpoint folder copied back by hand has a newer
     * time than the savepoint its job was stopped with, but an older checkpoint id: it is passed over and named.
     */
    @Test
    void aNewerButStaleCandidateIsPassedOverAndNamed() {
        RestorePoint handover = savepoint(CLUSTER_JOB, 40, 500, PipelineMode.CLUSTER);
        RestorePoint copiedBack = checkpoint(CLUSTER_JOB, 39, 520, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(
                commit(CLUSTER_JOB, 39, 491, PipelineMode.CLUSTER), commit(CLUSTER_JOB, 40, 501, PipelineMode.CLUSTER));

        RestoreDecision decision =
                decide(PipelineMode.CLUSTER, List.of(handover, copiedBack), commits, Optional.empty());

        assertThat(decision.requireRestorePoint()).isEqualTo(handover);
        assertThat(decision.stale()).singleElement().satisfies(stale -> {
            assertThat(stale.point()).isEqualTo(copiedBack);
            assertThat(stale.reason()).isEqualTo(Reason.ITS_JOB_COMMITTED_A_LATER_CHECKPOINT);
        });
        assertThat(decision.message())
                .startsWith("Restoring " + handover.describe())
                .contains(copiedBack.describe() + ": its job committed the later checkpoint 40");
    }

    @Test
    void amongSafeCandidatesTheNewestWinsAndThenTheHigherCheckpoint() {
        RestorePoint older = checkpoint(CLUSTER_JOB, 20, 200, PipelineMode.CLUSTER);
        RestorePoint newer = savepoint(CLUSTER_JOB, 21, 210, PipelineMode.CLUSTER);
        RestorePoint sameTimeHigherId = checkpoint(CLUSTER_JOB, 22, 210, PipelineMode.CLUSTER);

        assertThat(decide(PipelineMode.CLUSTER, List.of(older, newer), List.of(), Optional.empty())
                        .requireRestorePoint())
                .isEqualTo(newer);
        assertThat(decide(PipelineMode.CLUSTER, List.of(newer, sameTimeHigherId, older), List.of(), Optional.empty())
                        .requireRestorePoint())
                .isEqualTo(sameTimeHigherId);
    }

    /** The same savepoint offered twice (the cluster's final savepoint is also the handover) is judged once. */
    @Test
    void theSameLocationOfferedTwiceCountsOnce() {
        RestorePoint handover = savepoint(CLUSTER_JOB, 40, 500, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(commit("later", 1, 600, PipelineMode.EMBEDDED));

        RestoreDecision decision =
                decide(PipelineMode.EMBEDDED, List.of(handover, handover), commits, Optional.empty());

        assertThat(decision.stale()).hasSize(1);
    }

    /**
     * The crash this guard exists for: the cluster was killed (no savepoint), then the pipeline is started embedded.
     * Its own checkpoint and the handover of its last graceful stop are older than the cluster's commits.
     */
    @Test
    void aStartInTheOtherModeAfterACrashIsRefusedWithTheCommandThatFixesIt() {
        RestorePoint ownCheckpoint = checkpoint(EMBEDDED_JOB, 14, 140, PipelineMode.EMBEDDED);
        RestorePoint oldHandover = savepoint(EMBEDDED_JOB, 15, 150, PipelineMode.EMBEDDED);
        FlinkCommit lastClusterCommit = commit(CLUSTER_JOB, 33, 420, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(
                commit(EMBEDDED_JOB, 15, 151, PipelineMode.EMBEDDED),
                commit(CLUSTER_JOB, 32, 410, PipelineMode.CLUSTER),
                lastClusterCommit);

        RestoreDecision decision =
                decide(PipelineMode.EMBEDDED, List.of(ownCheckpoint, oldHandover), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.REFUSE);
        assertThat(decision.lastCommit()).hasValue(lastClusterCommit);
        assertThat(decision.stale()).extracting(StaleRestorePoint::point).containsExactly(oldHandover, ownCheckpoint);
        assertThat(decision.message())
                .startsWith("Refusing to start the pipeline in embedded mode")
                .contains("the cluster job c1 at " + T0.plusSeconds(420)
                        + " (fleet.positions snapshot 420, checkpoint 33)")
                .contains(oldHandover.describe() + ": the cluster job c1 at " + T0.plusSeconds(420))
                .contains(ownCheckpoint.describe())
                .contains("./fleet up --pipeline-mode cluster")
                .contains("stop it with Ctrl-C: it stops the job with a savepoint in " + HANDOVER)
                .endsWith("--set pipeline.start-from-offsets-after-job=c1");
    }

    /** A data folder whose pipeline checkpoints were deleted while the tables keep its commits. */
    @Test
    void noRestorePointButFlinkCommitsIsRefused() {
        List<FlinkCommit> commits = List.of(commit(EMBEDDED_JOB, 15, 151, PipelineMode.EMBEDDED));

        RestoreDecision decision = decide(PipelineMode.EMBEDDED, List.of(), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.REFUSE);
        assertThat(decision.message())
                .contains("there is no restore point to resume from")
                .contains("Job e1 ran in embedded mode, as this start does, but its newest restore point is not here")
                .doesNotContain("./fleet up")
                .endsWith("--set pipeline.start-from-offsets-after-job=e1");
    }

    @Test
    void aCommitOfAnEarlierReleaseDoesNotNameItsModeSoBothCommandsAreGiven() {
        List<FlinkCommit> commits = List.of(new FlinkCommit("positions", 7, "old", 5, T0, Optional.empty()));

        RestoreDecision decision = decide(PipelineMode.CLUSTER, List.of(), commits, Optional.empty());

        assertThat(decision.outcome()).isEqualTo(Outcome.REFUSE);
        assertThat(decision.message())
                .contains("The commit does not say which mode ran job old")
                .contains("./fleet up --pipeline-mode embedded     or     ./fleet up --pipeline-mode cluster");
    }

    @Test
    void namingTheJobThatCommittedLastAcceptsAStartFromTheOffsets() {
        RestorePoint stale = checkpoint(EMBEDDED_JOB, 14, 140, PipelineMode.EMBEDDED);
        List<FlinkCommit> commits = List.of(commit(CLUSTER_JOB, 33, 420, PipelineMode.CLUSTER));

        RestoreDecision decision = decide(PipelineMode.EMBEDDED, List.of(stale), commits, Optional.of(" c1 "));

        assertThat(decision.outcome()).isEqualTo(Outcome.START_FROM_OFFSETS_ACCEPTED);
        assertThat(decision.restorePoint()).isEmpty();
        assertThat(decision.stale()).extracting(StaleRestorePoint::point).containsExactly(stale);
        assertThat(decision.message())
                .contains("pipeline.start-from-offsets-after-job = c1")
                .contains("may be written twice or be missing");
    }

    /** A setting left behind from an earlier start never lets a later unsafe start through. */
    @Test
    void namingAnotherJobThanTheLastWriterIsNoAcceptance() {
        List<FlinkCommit> commits = List.of(
                commit(CLUSTER_JOB, 33, 420, PipelineMode.CLUSTER), commit("e2", 3, 700, PipelineMode.EMBEDDED));

        RestoreDecision decision = decide(PipelineMode.CLUSTER, List.of(), commits, Optional.of(CLUSTER_JOB));

        assertThat(decision.outcome()).isEqualTo(Outcome.REFUSE);
        assertThat(decision.message())
                .contains("pipeline.start-from-offsets-after-job = c1 does not apply")
                .contains("./fleet up --pipeline-mode embedded");
    }

    /** A safe restore point is restored whatever the acceptance says: accepting is only for when none is safe. */
    @Test
    void aSafeRestorePointWinsOverAnAcceptance() {
        RestorePoint newest = checkpoint(CLUSTER_JOB, 34, 430, PipelineMode.CLUSTER);
        List<FlinkCommit> commits = List.of(commit(CLUSTER_JOB, 33, 420, PipelineMode.CLUSTER));

        RestoreDecision decision = decide(PipelineMode.CLUSTER, List.of(newest), commits, Optional.of(CLUSTER_JOB));

        assertThat(decision.outcome()).isEqualTo(Outcome.RESTORE);
    }

    private static RestoreDecision decide(
            PipelineMode starting,
            List<RestorePoint> candidates,
            List<FlinkCommit> commits,
            Optional<String> acceptedJob) {
        return RestoreGuard.decide(starting, candidates, commits, acceptedJob, HANDOVER);
    }

    private static RestorePoint checkpoint(String job, long id, long second, PipelineMode mode) {
        return new RestorePoint(
                job, id, T0.plusSeconds(second), "/data/" + mode + "/" + job + "/chk-" + id, mode, Kind.CHECKPOINT);
    }

    private static RestorePoint savepoint(String job, long id, long second, PipelineMode mode) {
        return new RestorePoint(
                job,
                id,
                T0.plusSeconds(second),
                "file:/data/handover/savepoint-" + job + "-" + id,
                mode,
                Kind.SAVEPOINT);
    }

    /** A commit of {@code fleet.positions} whose snapshot id is its second, for readable messages. */
    private static FlinkCommit commit(String job, long checkpoint, long second, PipelineMode mode) {
        return new FlinkCommit("positions", second, job, checkpoint, T0.plusSeconds(second), Optional.of(mode));
    }
}
