package io.fleetlake.flink.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a job that restarts visible in the pipeline's own log: it polls the job's {@value
 * PipelineMetricNames#NUM_RESTARTS} metric on the REST API of the pipeline's MiniCluster and, whenever it grew, logs a
 * warning with the count and the cause Flink recorded ({@code /jobs/<id>/exceptions}). A record never restarts the job
 * (it is dead-lettered), so every such line is a real fault to look at; the count stays available to anyone at {@code
 * GET /jobs/<id>/metrics?get=numRestarts}.
 */
public final class RestartReporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RestartReporter.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_CAUSE_CHARS = 1_000;

    private final FlinkRestClient rest;
    private final String jobPath;
    private final ScheduledExecutorService scheduler;
    private long reportedRestarts;

    private RestartReporter(FlinkRestClient rest, JobID job) {
        this.rest = requireNonNull(rest, "rest is null");
        this.jobPath = "/jobs/" + requireNonNull(job, "job is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fleet-pipeline-restart-reporter");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts polling the job on the REST API at {@code restUri} every {@code interval}, presenting {@code tls}'s client
     * certificate where the endpoint requires one.
     */
    public static RestartReporter start(String restUri, Optional<FlinkRestTls> tls, JobID job, Duration interval) {
        FlinkRestClient.Builder client =
                FlinkRestClient.builder(restUri).connectTimeout(REQUEST_TIMEOUT).callTimeout(REQUEST_TIMEOUT);
        tls.ifPresent(client::tls);
        RestartReporter reporter = new RestartReporter(client.build(), job);
        reporter.scheduler.scheduleWithFixedDelay(
                reporter::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return reporter;
    }

    /** Reads the restart count and logs the restarts since the last poll; never throws (the job matters, not this). */
    void poll() {
        try {
            Optional<Long> restarts = restarts();
            if (restarts.isEmpty() || restarts.get() <= reportedRestarts) {
                return;
            }
            LOG.warn(
                    "The fleet pipeline job restarted ({} restarts since it started; Flink retries with a growing delay,"
                            + " see pipeline.restart-*). Last cause: {}",
                    restarts.get(),
                    lastCause());
            reportedRestarts = restarts.get();
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot read the restart count from {}{}", rest.restUri(), jobPath, e);
        }
    }

    private Optional<Long> restarts() throws IOException {
        JsonNode metrics = get("/metrics?get=" + PipelineMetricNames.NUM_RESTARTS);
        for (JsonNode metric : metrics) {
            if (PipelineMetricNames.NUM_RESTARTS.equals(metric.path("id").asText())) {
                return Optional.of(Long.parseLong(metric.path("value").asText()));
            }
        }
        return Optional.empty();
    }

    /** The newest failure Flink recorded: when, in which task, and its exception (first line of the stack trace). */
    private String lastCause() throws IOException {
        JsonNode entries =
                get("/exceptions?maxExceptions=1").path("exceptionHistory").path("entries");
        if (!entries.isArray() || entries.isEmpty()) {
            return "not recorded";
        }
        JsonNode newest = entries.get(0);
        String stackTrace = newest.path("stacktrace").asText("");
        String firstLine = stackTrace
                .lines()
                .findFirst()
                .orElse(newest.path("exceptionName").asText("unknown"));
        String cause = firstLine
                + (newest.hasNonNull("taskName")
                        ? " in " + newest.get("taskName").asText()
                        : "")
                + (newest.hasNonNull("timestamp")
                        ? " at " + Instant.ofEpochMilli(newest.get("timestamp").asLong())
                        : "");
        return cause.length() <= MAX_CAUSE_CHARS ? cause : cause.substring(0, MAX_CAUSE_CHARS) + "...";
    }

    private JsonNode get(String path) throws IOException {
        return rest.get(jobPath + path);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
