package io.fleetlake.dashboard.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;

/**
 * Reads the parts of Flink REST responses the dashboard needs; shapes as Flink 2.1 sends them (see the recorded
 * responses in the tests).
 */
final class FlinkRestResponses {
    static final String RUNNING = "RUNNING";

    private FlinkRestResponses() {}

    /**
     * The job of that name from {@code GET /jobs/overview} ({@code {"jobs":[{"jid","name","state","start-time"}]}}):
     * a RUNNING one if any, else the newest; several runs of one name are kept until the history expires.
     */
    static Optional<JobSummary> job(JsonNode overview, String jobName) {
        return StreamSupport.stream(overview.path("jobs").spliterator(), false)
                .filter(job -> jobName.equals(job.path("name").asText()))
                .map(job -> new JobSummary(
                        job.path("jid").asText(),
                        job.path("state").asText(),
                        job.path("start-time").asLong()))
                .max(Comparator.comparing((JobSummary job) -> job.state().equals(RUNNING))
                        .thenComparing(JobSummary::startTime));
    }

    /** The vertex ids from {@code GET /jobs/{jobId}} ({@code {"vertices":[{"id","name",...}]}}). */
    static List<String> vertexIds(JsonNode jobDetails) {
        List<String> ids = new ArrayList<>();
        jobDetails.path("vertices").forEach(vertex -> ids.add(vertex.path("id").asText()));
        return ids;
    }

    /**
     * The metric ids among {@code GET /jobs/{jobId}/vertices/{vertexId}/subtasks/metrics} ({@code [{"id":...}]}) that
     * are one of the counters. Operator metrics are listed as {@code <operator name>.<metric>}, such as {@code
     * decode-positions.recordsRead}, and metrics of a sub-group with one more segment ({@code
     * decode-positions.rejectionReason.OUTSIDE_REGION}): the last segment names the counter.
     */
    static List<String> counterIds(JsonNode availableMetrics, Collection<String> counterNames) {
        List<String> ids = new ArrayList<>();
        for (JsonNode metric : availableMetrics) {
            String id = metric.path("id").asText();
            if (counterName(id).filter(counterNames::contains).isPresent()) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Metric id to sum from {@code ...subtasks/metrics?get=...&agg=sum} ({@code [{"id":...,"sum":12.0}]}). */
    static Map<String, Double> sums(JsonNode aggregatedMetrics) {
        Map<String, Double> sums = new LinkedHashMap<>();
        for (JsonNode metric : aggregatedMetrics) {
            JsonNode sum = metric.path("sum");
            if (sum.isNumber()) {
                sums.put(metric.path("id").asText(), sum.asDouble());
            }
        }
        return sums;
    }

    /** The counter a metric id names: what follows its last dot. */
    static Optional<String> counterName(String metricId) {
        int dot = metricId.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.of(metricId.substring(dot + 1));
    }

    /** One entry of the jobs overview. */
    record JobSummary(String jobId, String state, long startTime) {}
}
