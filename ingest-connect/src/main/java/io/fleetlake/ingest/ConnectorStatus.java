package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The state of a connector and its tasks as served by {@code GET /connectors/<name>/status}.
 *
 * @param name the connector name
 * @param state the connector's state: UNASSIGNED, RUNNING, PAUSED, STOPPED, FAILED or RESTARTING
 * @param trace the connector's failure stack trace, if it failed
 * @param tasks the state of each task
 */
public record ConnectorStatus(String name, String state, Optional<String> trace, List<TaskStatus> tasks) {
    public static final String RUNNING = "RUNNING";
    public static final String FAILED = "FAILED";

    private static final ObjectMapper JSON = new ObjectMapper();

    public ConnectorStatus {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(trace, "trace is null");
        tasks = List.copyOf(requireNonNull(tasks, "tasks is null"));
    }

    /** Parses the body of {@code GET /connectors/<name>/status}. */
    public static ConnectorStatus fromJson(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Not a connector status document: " + json, e);
        }
        JsonNode connector = root.path("connector");
        if (!root.path("name").isTextual() || !connector.path("state").isTextual()) {
            throw new IllegalArgumentException("Not a connector status document: " + json);
        }
        List<TaskStatus> tasks = new ArrayList<>();
        for (JsonNode task : root.path("tasks")) {
            tasks.add(new TaskStatus(task.path("id").asInt(), task.path("state").asText(), text(task.path("trace"))));
        }
        return new ConnectorStatus(
                root.path("name").asText(), connector.path("state").asText(), text(connector.path("trace")), tasks);
    }

    /** The health check: the connector and every task RUNNING, with at least one task. */
    public boolean running() {
        return state.equals(RUNNING) && !tasks.isEmpty() && tasks.stream().allMatch(TaskStatus::running);
    }

    /** The connector or a task FAILED; Connect does not restart them by itself. */
    public boolean failed() {
        return state.equals(FAILED)
                || tasks.stream().anyMatch(task -> task.state().equals(FAILED));
    }

    /** One line such as {@code connector RUNNING, tasks [0 RUNNING, 1 FAILED]}. */
    public String summary() {
        return "connector " + state + ", tasks "
                + tasks.stream()
                        .map(task -> task.id() + " " + task.state())
                        .collect(Collectors.joining(", ", "[", "]"));
    }

    /** The first failure stack trace, of the connector or of a task. */
    public Optional<String> firstTrace() {
        return trace.or(() ->
                tasks.stream().map(TaskStatus::trace).flatMap(Optional::stream).findFirst());
    }

    private static Optional<String> text(JsonNode node) {
        return node.isTextual() ? Optional.of(node.asText()) : Optional.empty();
    }

    /**
     * @param id the task number
     * @param state the task's state
     * @param trace the failure stack trace, if it failed
     */
    public record TaskStatus(int id, String state, Optional<String> trace) {
        public TaskStatus {
            requireNonNull(state, "state is null");
            requireNonNull(trace, "trace is null");
        }

        public boolean running() {
            return state.equals(RUNNING);
        }
    }
}
