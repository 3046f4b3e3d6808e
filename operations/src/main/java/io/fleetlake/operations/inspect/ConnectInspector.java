package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.connect.client.ConnectRestClient.ConnectRestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The state of a connector and its tasks, from the Kafka Connect REST API. */
public final class ConnectInspector {
    /** The state reported for a connector the worker does not know. */
    public static final String NOT_REGISTERED = "NOT_REGISTERED";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String connectUri;
    private final ConnectRestClient client;

    /**
     * @param connectUri the worker's REST API, for example {@code http://127.0.0.1:18083}
     * @param credentials its read-only principal; empty for a worker that asks for none
     */
    public ConnectInspector(String connectUri, Optional<BasicCredentials> credentials) {
        this.connectUri = requireNonNull(connectUri, "connectUri is null");
        this.client = new ConnectRestClient(
                URI.create(connectUri),
                HttpClient.newBuilder().connectTimeout(TIMEOUT).build(),
                TIMEOUT,
                requireNonNull(credentials, "credentials is null"));
    }

    /**
     * {@code GET /connectors/<name>/status}; a connector the worker does not know is {@value #NOT_REGISTERED} without
     * tasks.
     *
     * @throws InspectionException when the worker cannot be asked
     */
    public ConnectorState state(String connector) {
        requireNonNull(connector, "connector is null");
        try {
            Optional<String> status = client.connectorStatus(connector);
            if (status.isEmpty()) {
                return new ConnectorState(connector, NOT_REGISTERED, List.of());
            }
            return parse(connector, JSON.readTree(status.get()));
        } catch (ConnectRestException e) {
            throw new InspectionException(e.getMessage(), e);
        } catch (IOException | UncheckedIOException e) {
            throw new InspectionException("Cannot ask the Connect worker at " + connectUri + ": " + e, e);
        } catch (IllegalStateException e) {
            throw new InspectionException("Interrupted while asking the Connect worker", e);
        }
    }

    /**
     * {@code GET /ingest/health} of the worker (module ingest-connect): whether messages move, beyond the states the
     * Connect REST API reports (the tasks run in this worker, their MQTT clients are connected, no message waits too
     * long for Kafka). 200 is healthy, 503 lists the problems.
     *
     * @throws InspectionException when the worker cannot be asked or answers something else
     */
    public IngestWorkerHealth ingestHealth() {
        try {
            HttpResponse<String> response = client.get("/ingest/health");
            if (response.statusCode() != 200 && response.statusCode() != 503) {
                throw new InspectionException("GET " + response.uri() + " answered " + response.statusCode());
            }
            return parseIngestHealth(JSON.readTree(response.body()));
        } catch (IOException | UncheckedIOException e) {
            throw new InspectionException("Cannot ask the Connect worker at " + connectUri + ": " + e, e);
        } catch (IllegalStateException e) {
            throw new InspectionException("Interrupted while asking the Connect worker", e);
        }
    }

    /** Whether the worker answers {@code GET /connectors} with 200 to these credentials: the component's up probe. */
    public boolean answers() {
        try {
            return client.get("/connectors").statusCode() == 200;
        } catch (UncheckedIOException | IllegalStateException e) {
            return false;
        }
    }

    static IngestWorkerHealth parseIngestHealth(JsonNode health) {
        List<String> problems = new ArrayList<>();
        health.path("problems").forEach(problem -> problems.add(problem.asText()));
        long pending = 0;
        long oldestPendingMillis = 0;
        for (JsonNode task : health.path("tasks")) {
            pending += task.path("pending").asLong();
            oldestPendingMillis = Math.max(
                    oldestPendingMillis, task.path("oldest_pending_age_ms").asLong());
        }
        return new IngestWorkerHealth(health.path("healthy").asBoolean(false), problems, pending, oldestPendingMillis);
    }

    static ConnectorState parse(String connector, JsonNode status) {
        List<TaskState> tasks = new ArrayList<>();
        for (JsonNode task : status.path("tasks")) {
            String trace = task.path("trace").asText("");
            tasks.add(new TaskState(
                    task.path("id").asInt(),
                    task.path("state").asText("UNKNOWN"),
                    trace.isEmpty()
                            ? Optional.empty()
                            : Optional.of(trace.lines().findFirst().orElse(trace))));
        }
        return new ConnectorState(
                connector, status.path("connector").path("state").asText("UNKNOWN"), tasks);
    }

    /**
     * @param state {@code RUNNING}, {@code PAUSED}, {@code STOPPED}, {@code FAILED}, {@code UNASSIGNED}, or
     *     {@value #NOT_REGISTERED}
     */
    public record ConnectorState(String connector, String state, List<TaskState> tasks) {
        public static final String RUNNING = "RUNNING";

        public ConnectorState {
            requireNonNull(connector, "connector is null");
            requireNonNull(state, "state is null");
            tasks = List.copyOf(requireNonNull(tasks, "tasks is null"));
        }

        /** The connector and at least one task run, and no task is in another state. */
        public boolean running() {
            return RUNNING.equals(state)
                    && !tasks.isEmpty()
                    && tasks.stream().allMatch(task -> RUNNING.equals(task.state()));
        }
    }

    /**
     * The worker's own verdict on ingestion ({@code /ingest/health}).
     *
     * @param healthy whether messages move
     * @param problems one sentence per broken rule
     * @param pending MQTT messages received and not yet acknowledged by Kafka, over the worker's tasks
     * @param oldestPendingMillis how long the oldest of them has waited
     */
    public record IngestWorkerHealth(boolean healthy, List<String> problems, long pending, long oldestPendingMillis) {
        public IngestWorkerHealth {
            problems = List.copyOf(requireNonNull(problems, "problems is null"));
        }
    }

    /** @param failure the first line of the task's trace, when it failed */
    public record TaskState(int id, String state, Optional<String> failure) {
        public TaskState {
            requireNonNull(state, "state is null");
            requireNonNull(failure, "failure is null");
        }
    }
}
