package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestClient.JobDetails;
import io.fleetlake.flink.rest.FlinkRestClient.JobSummary;
import io.fleetlake.flink.rest.FlinkRestClient.TaskManager;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.EmbeddedStack.StackException;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.ClusterJobFiles;
import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import io.fleetlake.stack.cluster.FlinkClusterComponents;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline switches from the embedded mode to a real Flink session cluster and back, and on the cluster survives
 * the loss of a TaskManager and of the JobManager and rescales from savepoints, under load, without losing or
 * duplicating a position; a start in the other mode after a crash is refused.
 *
 * <p>While MQTT clients publish a ledger of positions (QoS 1) it swaps the shared stack's pipeline for the cluster of
 * {@code stack.pipeline-mode=cluster} ({@link FleetStack#pipelineCluster}): a JobManager and two TaskManagers of two
 * slots each, separate JVMs started from the Flink runtime artifacts, the same job jar docker-compose uses submitted
 * through the REST API, RocksDB state, checkpoints and savepoints on the stack's S3 server. The switch is the
 * product's, nothing is moved by hand: stopping the embedded pipeline (SIGTERM) leaves a canonical savepoint in the
 * handover folder, and the cluster's first job restores it. On the cluster it: kills a TaskManager that runs part of
 * the job with SIGKILL (Flink restarts the job from its last checkpoint on the remaining slots; the stack's supervisor
 * starts the TaskManager again); rescales the job to parallelism 4 and back to 2 with {@code fleet cluster rescale} (a
 * savepoint, a stop, a new submission restoring it); and kills the JobManager (it forgets the job; the stack submits it
 * again from its newest retained checkpoint, found on S3). Then it crashes the whole cluster (the JobManager killed,
 * no savepoint), and the embedded pipeline must refuse to start, naming the cluster job and the command that fixes it;
 * it does what the message says: starts the cluster once (which resumes from the crashed job's newest retained
 * checkpoint) and stops it gracefully, which leaves the cluster's handover savepoint, and the embedded pipeline starts
 * from that. Then {@code fleet verify} must report 0 lost and 0 duplicated and Redis current, and every acknowledged
 * position must be exactly once in {@code fleet.positions}.
 *
 * <p>It runs last, since it takes the shared stack's pipeline away for its duration. The figures are logged and
 * written to {@code target/cluster-failover-figures.txt}.
 */
@Order(Integer.MAX_VALUE)
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
// Bounded: 13 to 16 minutes on this machine when CI runs it beside FaultInjectionIT's stack (load average above 15);
// 14 minutes failed CI once at 16 min 10 s.
@Timeout(value = 24, unit = TimeUnit.MINUTES)
class ClusterFailoverIT {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterFailoverIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "CLU-";
    private static final int CLIENTS = 3;
    private static final int VEHICLES_PER_CLIENT = 5;
    private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(4);
    /** Checkpoints the job completes at each step before the next, so that it commits to Iceberg there. */
    private static final int CHECKPOINTS_PER_STEP = 3;

    private final List<String> figures = new ArrayList<>();
    private StackSettings settings;
    /** The cluster's JobManager: HTTPS, presenting the data folder's client certificate. */
    private FlinkRestClient rest;
    /** The embedded pipeline's MiniCluster behind the same port, with the same client certificate. */
    private FlinkRestClient embeddedRest;

    private ClusterJobFiles jobFiles;
    private HandoverSavepoint handover;

    @Test
    void theModeSwitchesBothWaysAndTheJobSurvivesALostTaskManagerAndJobManagerAndRescalesWithoutLossOrDuplicates(
            RunningStack shared) throws Exception {
        settings = clusterSettings(shared.settings());
        rest = StackFlinkRest.client(settings);
        embeddedRest = StackFlinkRest.client(shared.settings());
        jobFiles = new ClusterJobFiles(FlinkClusterComponents.directory(settings));
        handover = new HandoverSavepoint(settings.handoverDirectory());
        FleetHome home = FleetHome.locate();
        long testStart = System.nanoTime();

        try (LedgerPublishers publishers = LedgerPublishers.start(settings, PREFIX, CLIENTS, VEHICLES_PER_CLIENT)) {
            awaitRowsBeyond(0, Instant.now(), "embedded: first rows of the ledger committed");
            EmbeddedStack cluster = switchToTheCluster(shared, home);
            String crashedJob;
            try {
                awaitCheckpoints();

                killTaskManager(cluster);
                awaitCheckpoints();

                rescale(4);
                awaitCheckpoints();
                rescale(2);
                awaitCheckpoints();

                killJobManager(cluster);
                awaitCheckpoints();

                crashedJob = crashTheCluster(cluster);
            } finally {
                // Idempotent: after the crash there is nothing left to stop.
                cluster.close();
            }
            theEmbeddedPipelineRefusesToStart(shared, crashedJob);
            switchBackAsTheRefusalSays(shared, home, crashedJob);

            publishers.stop(Duration.ofMinutes(5));
            verify(publishers, Duration.ofNanos(System.nanoTime() - testStart));
        }
    }

    /**
     * Stops the embedded pipeline as Ctrl-C does (SIGTERM), which leaves its handover savepoint, and starts the cluster,
     * whose first job must restore exactly that savepoint (heap state into RocksDB, through the canonical format).
     */
    private EmbeddedStack switchToTheCluster(RunningStack shared, FleetHome home) throws Exception {
        String embeddedJob = runningPipelineJob();
        long rowsBefore = LedgerCheck.rows(settings, PREFIX);
        Instant switching = Instant.now();
        shared.stack().stop(FleetStack.PIPELINE);
        Duration stopped = since(switching);
        RestorePoint savepoint = handover.read()
                .orElseThrow(() -> new AssertionError(
                        "The embedded pipeline left no handover savepoint in " + handover.directory()));
        assertThat(savepoint.jobId()).as("the handover is the embedded job's").isEqualTo(embeddedJob);
        assertThat(savepoint.mode()).isEqualTo(PipelineMode.EMBEDDED);

        EmbeddedStack cluster = FleetStack.pipelineCluster(settings, home);
        try {
            cluster.start();
        } catch (RuntimeException failure) {
            cluster.close();
            throw failure;
        }
        figure(
                String.format(
                        Locale.ROOT,
                        "switch embedded -> cluster: embedded stopped with savepoint %d in %.1f s; cluster started,"
                                + " job running",
                        savepoint.checkpointId(),
                        stopped.toMillis() / 1000.0),
                since(switching));
        assertThat(jobFiles.lastSubmitted().orElseThrow().restorePoint())
                .as("the cluster's first job restored the embedded pipeline's handover savepoint")
                .hasValue(savepoint);
        assertThat(job().parallelism()).as("the first submission's parallelism").isEqualTo(2);
        awaitRowsBeyond(rowsBefore, switching, "switch embedded -> cluster: new rows committed by the cluster");
        return cluster;
    }

    /**
     * SIGKILL to the JobManager and the cluster stack closed at once, before its supervisor starts it again: the job
     * cannot be stopped with a savepoint, as after a power loss. Returns the job that was running.
     */
    private String crashTheCluster(EmbeddedStack cluster) throws Exception {
        String jobId = job().id();
        RestorePoint handoverBefore = handover.read().orElseThrow();
        long pid = cluster.component(FlinkClusterComponents.JOB_MANAGER).pid().orElseThrow();
        LOG.info(
                "Fault: kill -9 {} (pid {}) and the cluster stopped, while job {} runs",
                FlinkClusterComponents.JOB_MANAGER,
                pid,
                jobId);
        assertThat(ProcessHandle.of(pid).orElseThrow().destroyForcibly()).isTrue();
        cluster.close();
        assertThat(handover.read())
                .as("a crashed cluster leaves no handover savepoint")
                .hasValue(handoverBefore);
        return jobId;
    }

    /**
     * The cluster's job committed after every restore point the embedded pipeline has (its handover savepoint from the
     * switch): restoring it would write those rows again. The start fails with the guard's message.
     */
    private void theEmbeddedPipelineRefusesToStart(RunningStack shared, String crashedJob) {
        Instant starting = Instant.now();
        assertThatThrownBy(() -> shared.stack().start(FleetStack.PIPELINE))
                .isInstanceOf(StackException.class)
                .hasMessageContaining("Refusing to start the pipeline in embedded mode")
                .hasMessageContaining("the cluster job " + crashedJob)
                .hasMessageContaining("savepoint")
                .hasMessageContaining("./fleet up --pipeline-mode cluster")
                .hasMessageContaining("stop it with Ctrl-C")
                .hasMessageContaining(handover.directory().toString())
                .hasMessageContaining("pipeline.start-from-offsets-after-job=" + crashedJob);
        figure("crash in cluster mode, then embedded: the start refused, naming the cluster job", since(starting));
    }

    /**
     * What the refusal says: the cluster started once (it resumes from the crashed job's newest retained checkpoint)
     * and stopped gracefully, which leaves its handover savepoint; the embedded pipeline then starts from that.
     */
    private void switchBackAsTheRefusalSays(RunningStack shared, FleetHome home, String crashedJob) throws Exception {
        long rowsBefore = LedgerCheck.rows(settings, PREFIX);
        Instant starting = Instant.now();
        EmbeddedStack again = FleetStack.pipelineCluster(settings, home);
        Instant stopping;
        try {
            again.start();
            figure("cluster started again after the crash, job running", since(starting));
            assertThat(jobFiles.lastSubmitted().orElseThrow().restoredFrom())
                    .as("resumed from the newest retained checkpoint of the crashed job")
                    .hasValueSatisfying(path -> assertThat(path).contains(crashedJob + "/chk-"));
            awaitRowsBeyond(rowsBefore, starting, "cluster after the crash: new rows committed");
        } finally {
            // What Ctrl-C of `fleet up --pipeline-mode cluster` does: the job first, with its savepoint.
            stopping = Instant.now();
            again.close();
        }
        RestorePoint clusterHandover = handover.read().orElseThrow();
        assertThat(clusterHandover.mode()).as("a graceful stop of the cluster").isEqualTo(PipelineMode.CLUSTER);
        assertThat(clusterHandover.location()).startsWith("file:");
        figure(
                "switch cluster -> embedded: cluster stopped, its job with savepoint " + clusterHandover.checkpointId()
                        + " in the handover folder",
                since(stopping));

        Instant switching = Instant.now();
        long rowsBeforeEmbedded = LedgerCheck.rows(settings, PREFIX);
        shared.stack().start(FleetStack.PIPELINE);
        figure("switch cluster -> embedded: embedded pipeline running, from the cluster's savepoint", since(switching));
        assertThat(localPath(restoredFromOfTheRunningJob()))
                .as("the embedded pipeline restored the cluster's handover savepoint (RocksDB state into the heap)")
                .isEqualTo(localPath(clusterHandover.location()));
        awaitRowsBeyond(rowsBeforeEmbedded, switching, "switch cluster -> embedded: new rows committed by embedded");
    }

    /** The pipeline job the embedded MiniCluster runs behind the REST port. */
    private String runningPipelineJob() throws IOException {
        return embeddedRest.jobs().stream()
                .filter(job -> PipelineMetricNames.JOB_NAME.equals(job.name()) && job.running())
                .map(JobSummary::id)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No pipeline job runs at " + embeddedRest.restUri()));
    }

    /**
     * Right after the job started, the MiniCluster once answered its checkpoint statistics with 500 (CI): the
     * statistics are read until they answer, for at most a minute.
     */
    private String restoredFromOfTheRunningJob() throws IOException {
        String jobId = runningPipelineJob();
        return await().alias("the checkpoint statistics of job " + jobId)
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> embeddedRest.checkpoints(jobId), Optional::isPresent)
                .flatMap(FlinkRestClient.CheckpointStatistics::restoredFrom)
                .orElseThrow(() -> new AssertionError("Job " + jobId + " restored nothing"));
    }

    /** The shared stack's settings in the cluster pipeline mode (the same servers, ports and data folder). */
    private static StackSettings clusterSettings(StackSettings shared) {
        Map<String, String> overrides = new HashMap<>();
        overrides.put(PipelineMode.KEY, PipelineMode.CLUSTER.toString());
        // Quick restarts: the test measures Flink's recovery, not the supervisor's production backoff.
        overrides.put("stack.restart-initial-delay", "1s");
        overrides.put("stack.restart-max-delay", "5s");
        ConfigSource configuration = shared.configuration().withOverrides(overrides, "ClusterFailoverIT");
        return new StackSettings(
                shared.dataDirectory(),
                shared.host(),
                shared.startTimeout(),
                shared.kafkaPartitions(),
                shared.s3AccessKey(),
                shared.s3SecretKey(),
                shared.s3Region(),
                shared.warehouseBucket(),
                shared.redisExecutable(),
                shared.ports(),
                configuration);
    }

    /**
     * SIGKILL to a TaskManager that runs part of the job. Flink restarts the job from its last checkpoint: at once on
     * the other TaskManager's slots (two, enough for parallelism 2), and the supervisor starts the killed one again.
     */
    private void killTaskManager(EmbeddedStack cluster) throws Exception {
        String victim = busyTaskManager();
        long pid = cluster.component(victim).pid().orElseThrow();
        int restartsBefore = cluster.restarts(victim);
        String jobId = job().id();
        long rowsBefore = LedgerCheck.rows(settings, PREFIX);
        Instant killedAt = Instant.now();
        LOG.info("Fault: kill -9 {} (pid {}), which runs tasks of job {}", victim, pid, jobId);
        assertThat(ProcessHandle.of(pid).orElseThrow().destroyForcibly()).isTrue();

        awaitJobInterrupted(jobId, victim);
        Duration jobBack = awaitJobFullyRunning(jobId, killedAt, "after the TaskManager was killed");
        figure("kill -9 " + victim + ": job " + jobId + " running again from its last checkpoint", jobBack);
        assertThat(job().id())
                .as("Flink recovered the same job; the stack did not resubmit it")
                .isEqualTo(jobId);
        awaitRowsBeyond(rowsBefore, killedAt, "kill -9 " + victim + ": new rows committed");
        cluster.awaitRestart(victim, restartsBefore, RECOVERY_TIMEOUT);
        figure("kill -9 " + victim + ": TaskManager restarted by the supervisor and registered", since(killedAt));
    }

    /** A savepoint, a stop and a new submission restoring it at {@code parallelism}, through {@code fleet cluster}. */
    private void rescale(int parallelism) throws Exception {
        JobDetails before = job();
        long rowsBefore = LedgerCheck.rows(settings, PREFIX);
        Instant started = Instant.now();
        FleetCommand.Result result = FleetCommand.run(
                settings, "cluster", "rescale", "--parallelism", Integer.toString(parallelism), "--json");
        assertThat(result.exitCode()).as("fleet cluster rescale: %s", result).isZero();
        JsonNode report = JSON.readTree(result.out());
        figure(
                String.format(
                        Locale.ROOT,
                        "rescale %d -> %d: savepoint %s, stop with savepoint %d ms; new job running %d ms after the"
                                + " stop",
                        before.parallelism(),
                        parallelism,
                        report.path("savepoint").asText(),
                        report.path("stop_with_savepoint_ms").asLong(),
                        report.path("stopped_to_running_ms").asLong()),
                since(started));

        JobDetails after = job();
        assertThat(after.id()).as("a new job").isNotEqualTo(before.id());
        assertThat(after.parallelism()).isEqualTo(parallelism);
        SubmittedJob submitted = jobFiles.lastSubmitted().orElseThrow();
        assertThat(submitted.restoredFrom())
                .as("the new job restored the savepoint the old one was stopped with")
                .hasValue(report.path("savepoint").asText());
        awaitRowsBeyond(rowsBefore, started, "rescale to " + parallelism + ": new rows committed");
        assertNoRestorePathLeftBehind(report.path("savepoint").asText());
    }

    /**
     * The savepoint a rescale restored was an argument of that one submission: neither the cluster's configuration nor
     * the job's names it, so no later start goes back to it.
     */
    private void assertNoRestorePathLeftBehind(String savepoint) throws IOException {
        for (Path file : List.of(
                FlinkClusterComponents.directory(settings).resolve("conf").resolve("config.yaml"),
                settings.dataDirectory().resolve("conf").resolve(FleetStack.PIPELINE + ".properties"))) {
            assertThat(Files.readString(file, StandardCharsets.UTF_8))
                    .as("%s after restoring %s", file, savepoint)
                    .doesNotContain(savepoint)
                    .doesNotContain("state-recovery")
                    .doesNotContain("savepoint.path");
        }
    }

    /**
     * SIGKILL to the JobManager. Without high availability it forgets the job when it comes back; the stack submits
     * the job again from its newest retained checkpoint, which it finds on S3 through Flink's file system.
     */
    private void killJobManager(EmbeddedStack cluster) throws Exception {
        String jobId = job().id();
        long rowsBefore = LedgerCheck.rows(settings, PREFIX);
        int restartsBefore = cluster.restarts(FleetStack.PIPELINE);
        long pid = cluster.component(FlinkClusterComponents.JOB_MANAGER).pid().orElseThrow();
        Instant killedAt = Instant.now();
        LOG.info("Fault: kill -9 {} (pid {}) while it runs job {}", FlinkClusterComponents.JOB_MANAGER, pid, jobId);
        assertThat(ProcessHandle.of(pid).orElseThrow().destroyForcibly()).isTrue();

        cluster.awaitRestart(FleetStack.PIPELINE, restartsBefore, RECOVERY_TIMEOUT);
        SubmittedJob resubmitted = jobFiles.lastSubmitted().orElseThrow();
        figure("kill -9 JobManager: job submitted again and running", since(killedAt));
        assertThat(resubmitted.jobId()).as("a new job").isNotEqualTo(jobId);
        assertThat(resubmitted.restoredFrom())
                .as("restored from the newest retained checkpoint of the killed job")
                .hasValueSatisfying(path -> assertThat(path).contains(jobId + "/chk-"));
        awaitRowsBeyond(rowsBefore, killedAt, "kill -9 JobManager: new rows committed");
    }

    private void verify(LedgerPublishers publishers, Duration elapsed) throws Exception {
        // The publishers have stopped: the hop before Kafka sees no traffic, so a look at it as long as the
        // verification itself takes (no extra 10 s window) proves as much. VerifyIT tests that hop under load.
        FleetCommand.Result verify = FleetCommand.run(
                settings, "verify", "--wait", "10m", "--vehicle-prefix", PREFIX, "--hop-window", "1s", "--json");
        JsonNode report = JSON.readTree(verify.out());
        LedgerCheck.ExactlyOnce exactlyOnce = LedgerCheck.exactlyOnce(settings, PREFIX, publishers.acknowledged());
        figure(
                String.format(
                        Locale.ROOT,
                        "streamed %,d positions from %d MQTT clients (%d vehicles), %,d acknowledged; fleet verify: raw"
                                + " %,d, rows %,d, lost %,d, duplicated %,d, Redis matching %,d of %,d; acknowledged"
                                + " missing %,d, stored twice %,d",
                        publishers.published(),
                        CLIENTS,
                        CLIENTS * VEHICLES_PER_CLIENT,
                        exactlyOnce.acknowledged(),
                        report.at("/raw/records").asLong(),
                        report.at("/positions/rows").asLong(),
                        report.at("/lost/total").asLong(),
                        report.at("/duplicated/keys").asLong(),
                        report.at("/redis/matching").asLong(),
                        report.at("/redis/vehicles").asLong(),
                        exactlyOnce.missing().size(),
                        exactlyOnce.duplicated().size()),
                elapsed);
        String text = "Cluster failover and rescaling figures (ClusterFailoverIT, " + Instant.now() + ")"
                + System.lineSeparator() + String.join(System.lineSeparator(), figures) + System.lineSeparator();
        LOG.info("{}{}", System.lineSeparator(), text);
        Files.writeString(Path.of("target", "cluster-failover-figures.txt"), text, StandardCharsets.UTF_8);

        assertThat(verify.exitCode()).as("fleet verify: %s", verify).isZero();
        assertThat(report.at("/lost/total").asLong()).as("lost").isZero();
        assertThat(report.at("/duplicated/keys").asLong()).as("duplicated").isZero();
        assertThat(report.at("/redis/matching").asLong())
                .as("Redis holds each vehicle's newest position")
                .isEqualTo(CLIENTS * VEHICLES_PER_CLIENT);
        assertThat(exactlyOnce.acknowledged()).as("acknowledged positions").isGreaterThan(1000);
        assertThat(exactlyOnce.missing()).as("acknowledged positions missing").isEmpty();
        assertThat(exactlyOnce.duplicated())
                .as("acknowledged positions stored twice")
                .isEmpty();
    }

    /** The TaskManager component whose slots hold tasks of the job. */
    private String busyTaskManager() throws IOException {
        for (TaskManager taskManager : rest.taskManagers()) {
            if (taskManager.freeSlots() < taskManager.slots()) {
                for (int number = 1; number <= FlinkClusterSettings.DEFAULT_TASK_MANAGERS; number++) {
                    String name = FlinkClusterSettings.taskManagerName(number);
                    if (taskManager.id().startsWith(name + "-")) {
                        return name;
                    }
                }
            }
        }
        throw new AssertionError("No TaskManager runs a task of the job: " + rest.taskManagers());
    }

    /** The job the stack submitted last, as the JobManager reports it. */
    private JobDetails job() throws IOException {
        String jobId = jobFiles.lastSubmitted().orElseThrow().jobId();
        return rest.job(jobId).orElseThrow(() -> new AssertionError("The JobManager does not know job " + jobId));
    }

    private void awaitJobInterrupted(String jobId, String cause) {
        await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> !rest.job(jobId).orElseThrow().fullyRunning());
        LOG.info("Job {} noticed the loss of {}", jobId, cause);
    }

    private Duration awaitJobFullyRunning(String jobId, Instant since, String when) {
        await().alias("job " + jobId + " fully running " + when)
                .atMost(RECOVERY_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(() -> rest.job(jobId).orElseThrow().fullyRunning());
        return since(since);
    }

    private void awaitRowsBeyond(long rowsBefore, Instant since, String what) {
        await().alias(what)
                .atMost(RECOVERY_TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> LedgerCheck.rows(settings, PREFIX) > rowsBefore);
        figure(what, since(since));
    }

    /**
     * Lets the job run at its current parallelism, under load, until it has completed {@value #CHECKPOINTS_PER_STEP}
     * more checkpoints (each one an Iceberg commit), so that every step restores state written at the previous one.
     */
    private void awaitCheckpoints() throws IOException {
        String jobId = job().id();
        long before = completedCheckpoints(jobId);
        await().alias(CHECKPOINTS_PER_STEP + " more checkpoints of job " + jobId)
                .atMost(RECOVERY_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> completedCheckpoints(jobId) >= before + CHECKPOINTS_PER_STEP);
    }

    private long completedCheckpoints(String jobId) throws IOException {
        return rest.checkpoints(jobId)
                .map(FlinkRestClient.CheckpointStatistics::completed)
                .orElse(0L);
    }

    private void figure(String what, Duration took) {
        String line = String.format(Locale.ROOT, "%-110s %7.1f s", what, took.toMillis() / 1000.0);
        LOG.info("Figure: {}", line);
        figures.add(line);
    }

    /** A {@code file:} location as Flink writes it ({@code file:/x}, {@code file:///x/}), as a path. */
    private static Path localPath(String location) {
        return Path.of(URI.create(location)).toAbsolutePath().normalize();
    }

    private static Duration since(Instant start) {
        return Duration.between(start, Instant.now());
    }
}
