package io.fleetlake.dashboard.pipeline;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.dashboard.pipeline.FlinkRestResponses.JobSummary;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the fleet pipeline's accounting counters through the Flink REST API: the job from {@code /jobs/overview}, its
 * vertices from {@code /jobs/{id}}, then per vertex the operator metrics it lists and their sum over subtasks.
 *
 * <p>Flink names operator metrics {@code <operator>.<counter>} in these endpoints, so asking for the bare counter names
 * ({@code ?get=recordsRead}) finds nothing: the ids are listed first. Flink's REST endpoint refreshes metrics every
 * {@code metrics.fetcher.update-interval} (10 s by default), so the counters lag by up to that much.
 */
public final class FlinkRestCountersReader implements PipelineCountersReader {
    public static final String JOB_NAME = PipelineMetricNames.JOB_NAME;

    static final String RECORDS_READ = PipelineMetricNames.RECORDS_READ;
    static final String RECORDS_REJECTED = PipelineMetricNames.RECORDS_REJECTED;
    static final String RECORDS_ACCEPTED = PipelineMetricNames.RECORDS_ACCEPTED;
    static final String RESENDS_DEDUPLICATED = PipelineMetricNames.RESENDS_DEDUPLICATED;
    static final List<String> COUNTERS =
            List.of(RECORDS_READ, RECORDS_REJECTED, RECORDS_ACCEPTED, RESENDS_DEDUPLICATED);

    /** Job and vertex ids are hexadecimal; anything else would change the request path. */
    private static final Pattern FLINK_ID = Pattern.compile("[0-9a-fA-F]{32}");

    private final FlinkRestGet client;

    public FlinkRestCountersReader(FlinkRestGet client) {
        this.client = requireNonNull(client, "client is null");
    }

    @Override
    public PipelineCounters read() throws PipelineCountersUnavailableException {
        JobSummary job = FlinkRestResponses.job(get("/jobs/overview"), JOB_NAME)
                .orElseThrow(() ->
                        new PipelineCountersUnavailableException("the Flink cluster runs no job named " + JOB_NAME));
        if (!job.state().equals(FlinkRestResponses.RUNNING)) {
            throw new PipelineCountersUnavailableException("the job " + JOB_NAME + " is " + job.state());
        }
        String jobPath = "/jobs/" + requireFlinkId(job.jobId());
        Map<String, Double> totals = new HashMap<>();
        for (String vertexId : FlinkRestResponses.vertexIds(get(jobPath))) {
            String metricsPath = jobPath + "/vertices/" + requireFlinkId(vertexId) + "/subtasks/metrics";
            List<String> ids = FlinkRestResponses.counterIds(get(metricsPath), COUNTERS);
            if (ids.isEmpty()) {
                continue;
            }
            String query = "?get=" + encode(String.join(",", ids)) + "&agg=sum";
            FlinkRestResponses.sums(get(metricsPath + query))
                    .forEach((id, sum) ->
                            totals.merge(FlinkRestResponses.counterName(id).orElseThrow(), sum, Double::sum));
        }
        if (!totals.containsKey(RECORDS_READ)) {
            throw new PipelineCountersUnavailableException(
                    "the job " + JOB_NAME + " has not reported its counters yet (Flink collects metrics every 10 s)");
        }
        return new PipelineCounters(
                job.jobId(),
                total(totals, RECORDS_READ),
                total(totals, RECORDS_REJECTED),
                total(totals, RECORDS_ACCEPTED),
                total(totals, RESENDS_DEDUPLICATED));
    }

    private JsonNode get(String pathAndQuery) throws PipelineCountersUnavailableException {
        try {
            return client.get(pathAndQuery);
        } catch (IOException e) {
            throw new PipelineCountersUnavailableException(e.getMessage(), e);
        }
    }

    private static String requireFlinkId(String id) throws PipelineCountersUnavailableException {
        if (!FLINK_ID.matcher(id).matches()) {
            throw new PipelineCountersUnavailableException("the Flink REST API returned an unexpected id '" + id + "'");
        }
        return id;
    }

    private static long total(Map<String, Double> totals, String counter) {
        return Math.round(totals.getOrDefault(counter, 0.0));
    }

    private static String encode(String value) {
        // Form encoding writes a space as '+', which a query string decoder may keep as a plus.
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
