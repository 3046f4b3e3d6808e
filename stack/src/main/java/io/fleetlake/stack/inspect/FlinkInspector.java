package io.fleetlake.stack.inspect;

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
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** Questions about the pipeline's Flink job, asked through the Flink REST API. */
public final class FlinkInspector {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    // The REST endpoint fetches metrics in the background: the first request after a while answers with none yet.
    private static final int METRIC_ATTEMPTS = 15;
    private static final Duration METRIC_RETRY_INTERVAL = Duration.ofSeconds(1);

    private final String restUri;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** @param restUri for example {@code http://127.0.0.1:18081} */
    public FlinkInspector(String restUri) {
        this.restUri = requireNonNull(restUri, "restUri is null");
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

    private OptionalLong numRestarts(String jobId) throws IOException, InterruptedException {
        for (int attempt = 1; attempt <= METRIC_ATTEMPTS; attempt++) {
            for (JsonNode metric : get("/jobs/" + jobId + "/metrics?get=" + PipelineRestarts.METRIC)) {
                if (PipelineRestarts.METRIC.equals(metric.path("id").asText())) {
                    return OptionalLong.of(Long.parseLong(metric.path("value").asText()));
                }
            }
            TimeUnit.MILLISECONDS.sleep(METRIC_RETRY_INTERVAL.toMillis());
        }
        return OptionalLong.empty();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        URI uri = URI.create(restUri + path);
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        return JSON.readTree(response.body());
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
}
