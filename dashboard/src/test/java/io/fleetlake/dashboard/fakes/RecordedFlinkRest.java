package io.fleetlake.dashboard.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.pipeline.FlinkRestGet;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Flink REST API answering with responses recorded from a Flink 2.1.1 MiniCluster (test resources {@code
 * flink-rest/}, see RECORDED.md there): a job {@code fleet-pipeline} with the pipeline's operator names and counters.
 */
public final class RecordedFlinkRest implements FlinkRestGet {
    public static final String JOB_ID = "d2875b833b9f3e9a2b87883fb5abd120";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Map<String, JsonNode> responses = new HashMap<>();
    private final List<String> requests = new ArrayList<>();

    /** Every recorded response at the path it was recorded from. */
    public static RecordedFlinkRest recorded() {
        RecordedFlinkRest rest = new RecordedFlinkRest();
        rest.answer("/jobs/overview", resource("jobs-overview.json"));
        JsonNode job = resource("job.json");
        rest.answer("/jobs/" + JOB_ID, job);
        for (int index = 0; index < job.path("vertices").size(); index++) {
            String metrics = "/jobs/" + JOB_ID + "/vertices/"
                    + job.path("vertices").get(index).path("id").asText() + "/subtasks/metrics";
            rest.answer(metrics, resource("vertex-" + index + "-metrics-list.json"));
            JsonNode sums = optionalResource("vertex-" + index + "-metrics-sum.json");
            if (sums != null) {
                rest.answerAnyQuery(metrics, sums);
            }
        }
        return rest;
    }

    public RecordedFlinkRest answer(String pathAndQuery, JsonNode response) {
        responses.put(pathAndQuery, response);
        return this;
    }

    /** Answers {@code path?<any query>}: the aggregated metrics request names the metric ids it wants. */
    public RecordedFlinkRest answerAnyQuery(String path, JsonNode response) {
        responses.put(path + "?*", response);
        return this;
    }

    public List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public JsonNode get(String pathAndQuery) throws IOException {
        requests.add(pathAndQuery);
        JsonNode response = responses.get(pathAndQuery);
        int query = pathAndQuery.indexOf('?');
        if (response == null && query >= 0) {
            response = responses.get(pathAndQuery.substring(0, query) + "?*");
        }
        if (response == null) {
            throw new IOException("Flink REST API answered 404 to " + pathAndQuery + ": {\"errors\":[\"Not found\"]}");
        }
        return response;
    }

    public static JsonNode resource(String name) {
        JsonNode node = optionalResource(name);
        if (node == null) {
            throw new IllegalStateException("Missing test resource flink-rest/" + name);
        }
        return node;
    }

    public static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode optionalResource(String name) {
        try (InputStream in = RecordedFlinkRest.class.getResourceAsStream("/flink-rest/" + name)) {
            return in == null ? null : MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
