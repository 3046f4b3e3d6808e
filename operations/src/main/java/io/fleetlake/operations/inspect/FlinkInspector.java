package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** Questions about the pipeline's Flink job, asked through the Flink REST API. */
public final class FlinkInspector {
    // The REST endpoint fetches metrics in the background: the first request after a while answers with none yet.
    private static final int METRIC_ATTEMPTS = 15;
    private static final Duration METRIC_RETRY_INTERVAL = Duration.ofSeconds(1);

    private final FlinkRestClient rest;
    private final String restUri;

    public FlinkInspector(FlinkRestClient rest) {
        this.rest = requireNonNull(rest, "rest is null");
        this.restUri = rest.restUri();
    }

    /** How often the running {@code fleet-pipeline} job restarted inside its process; never throws. */
    public PipelineRestarts pipelineRestarts() {
        try {
            for (JsonNode job : get("/jobs/overview").path("jobs")) {
                if (PipelineMetricNames.JOB_NAME.equals(job.path("name").asText())
                        && "RUNNING".equals(job.path("state").asText())) {
                    String jobId = job.path("jid").asText();
                    return new PipelineRestarts(Optional.of(jobId), "RUNNING", numRestarts(jobId));
                }
            }
            return new PipelineRestarts(Optional.empty(), "not running", OptionalLong.empty());
        } catch (IOException | RuntimeException e) {
            return new PipelineRestarts(
                    Optional.empty(), "unreachable at " + restUri + " (" + e.getMessage() + ")", OptionalLong.empty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PipelineRestarts(Optional.empty(), "not asked (interrupted)", OptionalLong.empty());
        }
    }

    /**
     * The pipeline's job: its state, restarts, last restart, checkpoint interval and last completed checkpoint. A job
     * that is not RUNNING (RESTARTING, FAILING, ...) is reported with its state; never throws.
     *
     * @param metricAttempts how often to ask for {@code numRestarts} while the REST endpoint has not fetched metrics
     *     yet, a second apart
     */
    public PipelineJob pipelineJob(int metricAttempts) {
        try {
            JsonNode found = null;
            for (JsonNode job : get("/jobs/overview").path("jobs")) {
                if (PipelineMetricNames.JOB_NAME.equals(job.path("name").asText())
                        && (found == null || "RUNNING".equals(job.path("state").asText()))) {
                    found = job;
                }
            }
            if (found == null) {
                return PipelineJob.unknown("no " + PipelineMetricNames.JOB_NAME + " job");
            }
            String jobId = found.path("jid").asText();
            String state = found.path("state").asText();
            JsonNode details = get("/jobs/" + jobId);
            long restarting = details.path("timestamps").path("RESTARTING").asLong(0);
            JsonNode checkpoints = get("/jobs/" + jobId + "/checkpoints");
            JsonNode latest = checkpoints.path("latest").path("completed");
            Optional<Checkpoint> lastCheckpoint = latest.isObject()
                    ? Optional.of(new Checkpoint(
                            latest.path("id").asLong(),
                            Instant.ofEpochMilli(
                                    latest.path("latest_ack_timestamp").asLong()),
                            Duration.ofMillis(latest.path("end_to_end_duration").asLong()),
                            latest.path("checkpointed_size")
                                    .asLong(latest.path("state_size").asLong())))
                    : Optional.empty();
            long interval = get("/jobs/" + jobId + "/checkpoints/config")
                    .path("interval")
                    .asLong(0);
            return new PipelineJob(
                    Optional.of(jobId),
                    state,
                    "RUNNING".equals(state) ? numRestarts(jobId, metricAttempts) : OptionalLong.empty(),
                    restarting > 0 ? Optional.of(Instant.ofEpochMilli(restarting)) : Optional.empty(),
                    interval > 0 ? Optional.of(Duration.ofMillis(interval)) : Optional.empty(),
                    lastCheckpoint,
                    checkpoints.path("counts").path("completed").asLong(0),
                    checkpoints.path("counts").path("failed").asLong(0));
        } catch (IOException | RuntimeException e) {
            return PipelineJob.unknown("unreachable at " + restUri + " (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PipelineJob.unknown("not asked (interrupted)");
        }
    }

    private OptionalLong numRestarts(String jobId) throws IOException, InterruptedException {
        return numRestarts(jobId, METRIC_ATTEMPTS);
    }

    private OptionalLong numRestarts(String jobId, int attempts) throws IOException, InterruptedException {
        for (int attempt = 1; attempt <= attempts; attempt++) {
            for (JsonNode metric : get("/jobs/" + jobId + "/metrics?get=" + PipelineRestarts.METRIC)) {
                if (PipelineRestarts.METRIC.equals(metric.path("id").asText())) {
                    return OptionalLong.of(Long.parseLong(metric.path("value").asText()));
                }
            }
            if (attempt < attempts) {
                TimeUnit.MILLISECONDS.sleep(METRIC_RETRY_INTERVAL.toMillis());
            }
        }
        return OptionalLong.empty();
    }

    private JsonNode get(String path) throws IOException {
        return rest.get(path);
    }

    /**
     * Restarts of the pipeline's Flink job inside its process (failovers), from the job's {@code numRestarts}
     * metric; restarts of the whole process are the stack supervisor's.
     *
     * @param jobId the running job, if one runs
     * @param state {@code RUNNING}, or why the count is unknown
     * @param numRestarts the count, when known
     */
    public record PipelineRestarts(Optional<String> jobId, String state, OptionalLong numRestarts) {
        public static final String METRIC = "numRestarts";

        public PipelineRestarts {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(state, "state is null");
            requireNonNull(numRestarts, "numRestarts is null");
        }
    }

    /**
     * The pipeline's Flink job as the REST API reports it.
     *
     * @param jobId the job, if one is known
     * @param state its state ({@code RUNNING}, {@code RESTARTING}, ...), or why it is unknown
     * @param numRestarts restarts inside the process (failovers), when the job runs and the metric is available
     * @param lastRestart when the job last entered RESTARTING, if it ever did
     * @param checkpointInterval the job's checkpoint interval
     * @param lastCheckpoint the newest completed checkpoint
     * @param checkpointsCompleted checkpoints completed since the job (re)started in this process
     * @param checkpointsFailed checkpoints failed since then
     */
    public record PipelineJob(
            Optional<String> jobId,
            String state,
            OptionalLong numRestarts,
            Optional<Instant> lastRestart,
            Optional<Duration> checkpointInterval,
            Optional<Checkpoint> lastCheckpoint,
            long checkpointsCompleted,
            long checkpointsFailed) {
        public PipelineJob {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(state, "state is null");
            requireNonNull(numRestarts, "numRestarts is null");
            requireNonNull(lastRestart, "lastRestart is null");
            requireNonNull(checkpointInterval, "checkpointInterval is null");
            requireNonNull(lastCheckpoint, "lastCheckpoint is null");
        }

        static PipelineJob unknown(String why) {
            return new PipelineJob(
                    Optional.empty(),
                    why,
                    OptionalLong.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    0,
                    0);
        }

        public boolean running() {
            return "RUNNING".equals(state);
        }
    }

    /** One completed checkpoint: when its last acknowledgement arrived, how long it took, its size in bytes. */
    public record Checkpoint(long id, Instant completedAt, Duration duration, long sizeBytes) {
        public Checkpoint {
            requireNonNull(completedAt, "completedAt is null");
            requireNonNull(duration, "duration is null");
        }
    }
}
