package io.fleetlake.stack.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.flink.rest.FlinkRestClient.JobDetails;
import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
import io.fleetlake.flink.rest.FlinkRestClient.TaskManager;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.ClusterJobFiles;
import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import io.fleetlake.stack.cluster.FlinkClusterComponents;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleet cluster}: the pipeline on the stack's Flink session cluster ({@code fleet up --pipeline-mode cluster}):
 * its status, a savepoint, and a restart at another parallelism from a savepoint.
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = {
            "Operate the pipeline job on the Flink session cluster of a stack started with"
                    + " `fleet up --pipeline-mode cluster` (a JobManager and TaskManagers, each a JVM, the job jar"
                    + " submitted through the REST API, RocksDB state, checkpoints and savepoints on S3).",
            "The running stack is the only one that submits the job: `rescale` stops the job with a savepoint and the"
                    + " stack submits it again from that savepoint, at the new parallelism, with the job jar as it is"
                    + " built now."
        },
        subcommands = {
            ClusterCommand.Status.class,
            ClusterCommand.Savepoint.class,
            ClusterCommand.Rescale.class,
            ClusterCommand.ClientCertificate.class,
            CommandLine.HelpCommand.class
        })
public final class ClusterCommand implements Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Name a subcommand: status, savepoint or rescale");
    }

    /** The cluster of the stack the options point at, and what the stack recorded about its job. */
    private record Cluster(
            StackSettings settings, FlinkClusterSettings cluster, FlinkRestClient rest, ClusterJobFiles files) {
        static Cluster of(StackOptions options) {
            ConfigSource configuration = options.configuration();
            StackSettings settings = options.settings(configuration, options.home());
            return new Cluster(
                    settings,
                    FlinkClusterSettings.from(configuration),
                    StackFlinkRest.client(settings),
                    new ClusterJobFiles(FlinkClusterComponents.directory(settings)));
        }

        /** The job the stack submitted last; fails with what to do when the stack never ran in cluster mode here. */
        SubmittedJob lastJob() {
            return files.lastSubmitted()
                    .orElseThrow(() -> new IllegalStateException("No pipeline job was ever submitted to a Flink"
                            + " cluster from " + settings.dataDirectory() + ": start the stack with `fleet up"
                            + " --pipeline-mode cluster` (or " + PipelineMode.KEY + "=cluster)"));
        }

        /** The job the stack submitted last, which must be running now. */
        JobDetails runningJob() throws IOException {
            SubmittedJob last = lastJob();
            JobDetails job = rest.job(last.jobId())
                    .orElseThrow(() -> new IllegalStateException("The Flink cluster at " + rest.restUri()
                            + " does not know the pipeline job " + last.jobId() + ": is the stack running?"));
            if (!"RUNNING".equals(job.state())) {
                throw new IllegalStateException(
                        "The pipeline job " + job.id() + " is " + job.state() + ", not RUNNING: try again shortly");
            }
            return job;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Show the cluster's TaskManagers and slots, the pipeline job (state, parallelism, restarts),"
                    + " its newest checkpoint and what it was restored from. Exit status 1 unless the job runs.")
    static final class Status implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private StackOptions options;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            Cluster cluster = Cluster.of(options);
            SubmittedJob last = cluster.lastJob();
            out.printf(
                    "Flink cluster at %s: %d slots in %d TaskManagers configured%n",
                    cluster.rest().restUri(),
                    cluster.cluster().totalSlots(),
                    cluster.cluster().taskManagers());
            for (TaskManager taskManager : cluster.rest().taskManagers()) {
                out.printf(
                        "  TaskManager %-40s slots %d, free %d%n",
                        taskManager.id(), taskManager.slots(), taskManager.freeSlots());
            }
            Optional<JobDetails> job = cluster.rest().job(last.jobId());
            if (job.isEmpty()) {
                out.printf("Pipeline job %s: not known to the JobManager (is the stack running?)%n", last.jobId());
                return 1;
            }
            OptionalLong restarts = cluster.rest().restarts(last.jobId());
            out.printf(
                    "Pipeline job %s: %s, parallelism %d, submitted %s, %s restarts%n",
                    job.get().id(),
                    job.get().state(),
                    job.get().parallelism(),
                    last.submittedAt(),
                    restarts.isPresent() ? Long.toString(restarts.getAsLong()) : "unknown");
            out.printf(
                    "  restored from: %s%n",
                    last.restorePoint()
                            .map(RestorePoint::describe)
                            .or(last::restoredFrom)
                            .orElse("nothing (started from the committed Kafka offsets)"));
            cluster.files()
                    .requestedParallelism()
                    .ifPresent(parallelism ->
                            out.printf("  parallelism requested by fleet cluster rescale: %d%n", parallelism));
            Optional<CheckpointStatistics> checkpoints = cluster.rest().checkpoints(last.jobId());
            checkpoints
                    .flatMap(CheckpointStatistics::newest)
                    .ifPresent(snapshot -> out.printf(
                            "  newest snapshot: %d at %s, %s written (state %s), took %d ms%n",
                            snapshot.id(),
                            snapshot.path(),
                            bytes(snapshot.checkpointedBytes()),
                            bytes(snapshot.stateBytes()),
                            snapshot.duration().toMillis()));
            return job.get().fullyRunning() ? 0 : 1;
        }
    }

    @Command(
            name = "savepoint",
            mixinStandardHelpOptions = true,
            description = "Take a savepoint of the running pipeline job into cluster.savepoint-dir while it goes on,"
                    + " and print its path, size and duration (for a backup, or to restore an older state by hand).")
    static final class Savepoint implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private StackOptions options;

        @Option(
                names = "--timeout",
                paramLabel = "DURATION",
                defaultValue = "5m",
                description = "How long the savepoint may take (default: ${DEFAULT-VALUE}).")
        private String timeout;

        @Override
        public Integer call() throws IOException {
            Cluster cluster = Cluster.of(options);
            JobDetails job = cluster.runningJob();
            long started = System.nanoTime();
            String path = cluster.rest()
                    .savepoint(job.id(), cluster.cluster().savepointDirectory(), ConfigSource.parseDuration(timeout));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            Optional<Snapshot> snapshot =
                    cluster.rest().checkpoints(job.id()).flatMap(CheckpointStatistics::latestSavepoint);
            spec.commandLine()
                    .getOut()
                    .printf(
                            "Savepoint of job %s: %s (%s, %.1f s)%n",
                            job.id(),
                            path,
                            snapshot.map(value -> bytes(value.stateBytes())).orElse("size unknown"),
                            took.toMillis() / 1000.0);
            return 0;
        }
    }

    @Command(
            name = "rescale",
            aliases = "restart",
            mixinStandardHelpOptions = true,
            description = {
                "Stop the running pipeline job with a savepoint and let the running stack submit it again from that"
                        + " savepoint, at --parallelism (default: the current one) and with the job jar as it is built"
                        + " now; wait until every task of the new job runs.",
                "The parallelism can be at most the cluster's slots (cluster.taskmanagers x"
                        + " cluster.slots-per-taskmanager); above the partitions of gps.raw.positions"
                        + " (stack.kafka-partitions, 2 by default) the extra source tasks stay idle, the per-vehicle"
                        + " work and the sinks spread further."
            })
    static final class Rescale implements Callable<Integer> {
        private static final Duration POLL_INTERVAL = Duration.ofMillis(500);

        @Spec
        private CommandSpec spec;

        @Mixin
        private StackOptions options;

        @Option(
                names = "--parallelism",
                paramLabel = "N",
                description = "The new parallelism (default: keep the current one, to restart on a rebuilt jar).")
        private Integer parallelism;

        @Option(
                names = "--timeout",
                paramLabel = "DURATION",
                defaultValue = "10m",
                description = "How long the savepoint and the new job's start may take (default: ${DEFAULT-VALUE}).")
        private String timeout;

        @Option(names = "--json", description = "Print what was done and measured as JSON.")
        private boolean json;

        @Override
        public Integer call() throws IOException, InterruptedException {
            Cluster cluster = Cluster.of(options);
            JobDetails job = cluster.runningJob();
            int target = parallelism == null ? job.parallelism() : parallelism;
            if (target < 1 || target > cluster.cluster().totalSlots()) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--parallelism must be between 1 and the cluster's "
                                + cluster.cluster().totalSlots() + " slots, got " + target);
            }
            Duration limit = ConfigSource.parseDuration(timeout);
            cluster.files().requestParallelism(target);
            long started = System.nanoTime();
            String savepoint =
                    cluster.rest().stopWithSavepoint(job.id(), cluster.cluster().savepointDirectory(), limit);
            long stopped = System.nanoTime();
            Snapshot completed = cluster.rest()
                    .completedSavepoint(job.id(), savepoint, FlinkRestClient.STATISTICS_REFRESH)
                    .orElseThrow(() -> new IllegalStateException("The JobManager does not report the savepoint "
                            + savepoint + " job " + job.id() + " was stopped with; the stack resubmits the job from its"
                            + " newest snapshot"));
            // With its checkpoint id and time, for the restore guard, should the JobManager forget the job before the
            // stack resubmits it.
            cluster.files().recordFinalSavepoint(job.id(), completed);
            // The statistics of a job stopped with a savepoint may report its size as 0: then the size is not shown.
            Optional<Snapshot> snapshot = Optional.of(completed).filter(value -> value.stateBytes() > 0);
            JobDetails next = awaitNextJob(cluster, job.id(), target, started + limit.toNanos());
            long running = System.nanoTime();
            report(job, savepoint, snapshot, next, stopped - started, running - stopped);
            return 0;
        }

        /** Waits until the stack has submitted a new job and every task of it runs at the target parallelism. */
        private static JobDetails awaitNextJob(Cluster cluster, String previous, int target, long deadline)
                throws IOException, InterruptedException {
            while (true) {
                Optional<SubmittedJob> submitted = cluster.files().lastSubmitted();
                if (submitted.isPresent() && !submitted.get().jobId().equals(previous)) {
                    Optional<JobDetails> next =
                            cluster.rest().job(submitted.get().jobId());
                    if (next.isPresent()
                            && next.get().fullyRunning()
                            && next.get().parallelism() == target) {
                        return next.get();
                    }
                    if (next.isPresent() && next.get().ended()) {
                        throw new IllegalStateException(
                                "The resubmitted pipeline job " + next.get().id() + " ended" + " as "
                                        + next.get().state() + ": read the JobManager's log");
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("The running stack did not submit the pipeline job again within"
                            + " the timeout after job " + previous + " was stopped: is the stack running (fleet"
                            + " status)? It resubmits from the final savepoint when it next starts.");
                }
                TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL.toMillis());
            }
        }

        private void report(
                JobDetails previous,
                String savepoint,
                Optional<Snapshot> snapshot,
                JobDetails next,
                long stopNanos,
                long restartNanos) {
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                ObjectNode report = JSON.createObjectNode();
                report.put("previous_job", previous.id());
                report.put("previous_parallelism", previous.parallelism());
                report.put("savepoint", savepoint);
                snapshot.ifPresent(value -> {
                    report.put("savepoint_bytes", value.stateBytes());
                    report.put("savepoint_ack_ms", value.duration().toMillis());
                });
                report.put("stop_with_savepoint_ms", TimeUnit.NANOSECONDS.toMillis(stopNanos));
                report.put("job", next.id());
                report.put("parallelism", next.parallelism());
                report.put("stopped_to_running_ms", TimeUnit.NANOSECONDS.toMillis(restartNanos));
                out.println(report.toString());
                return;
            }
            out.printf(
                    "Stopped job %s (parallelism %d) with savepoint %s (%s) in %.1f s%n",
                    previous.id(),
                    previous.parallelism(),
                    savepoint,
                    snapshot.map(value -> bytes(value.stateBytes())).orElse("size unknown"),
                    stopNanos / 1e9);
            out.printf(
                    "Job %s runs at parallelism %d, every task running %.1f s after the stop%n",
                    next.id(), next.parallelism(), restartNanos / 1e9);
        }
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }

    @Command(
            name = "client-certificate",
            mixinStandardHelpOptions = true,
            description = "Write the client certificate of the cluster's REST API (mutual TLS) into DIRECTORY for curl"
                    + " or a browser: " + StackFlinkRestIdentity.CLIENT_PEM + " (certificate and unencrypted key,"
                    + " owner-only: keep it so) and " + StackFlinkRestIdentity.CA_PEM + " (the CA to trust).")
    static final class ClientCertificate implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private StackOptions options;

        @Parameters(index = "0", paramLabel = "DIRECTORY", description = "Where to write the two files.")
        private Path directory;

        @Override
        public Integer call() {
            StackSettings settings = options.settings(options.configuration(), options.home());
            StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
            Path client = identity.exportClientPem(directory);
            Path authority = directory.resolve(StackFlinkRestIdentity.CA_PEM);
            PrintWriter out = spec.commandLine().getOut();
            out.printf("Wrote %s (owner-only: it holds the key) and %s%n", client, authority);
            out.printf(
                    "curl --cert %s --cacert %s https://%s:%d/overview%n",
                    client, authority, settings.host(), settings.port(StackPort.FLINK));
            return 0;
        }
    }
}
