package io.fleetlake.flink.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    private final URI jobUri;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private final ScheduledExecutorService scheduler;
    private long reportedRestarts;

    private RestartReporter(URI jobUri) {
        this.jobUri = requireNonNull(jobUri, "jobUri is null");
        this.http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fleet-pipeline-restart-reporter");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts polling the job on the REST API at {@code host:port} every {@code interval}. */
    public static RestartReporter start(String host, int port, JobID job, Duration interval) {
        RestartReporter reporter = new RestartReporter(URI.create("http://" + host + ":" + port + "/jobs/" + job));
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
            LOG.debug("Cannot read the restart count from {}", jobUri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Optional<Long> restarts() throws IOException, InterruptedException {
        JsonNode metrics = get("/metrics?get=" + PipelineMetricNames.NUM_RESTARTS);
        for (JsonNode metric : metrics) {
            if (PipelineMetricNames.NUM_RESTARTS.equals(metric.path("id").asText())) {
                return Optional.of(Long.parseLong(metric.path("value").asText()));
            }
        }
        return Optional.empty();
    }

    /** The newest failure Flink recorded: when, in which task, and its exception (first line of the stack trace). */
    private String lastCause() throws IOException, InterruptedException {
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

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(jobUri + path))
                        .timeout(REQUEST_TIMEOUT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + jobUri + path + " answered " + response.statusCode());
        }
        return json.readTree(response.body());
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
