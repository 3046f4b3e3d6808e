package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether ingestion works in this worker: not only that Connect says RUNNING, but that messages move.
 *
 * <p>Healthy when all of these hold:
 *
 * <ol>
 *   <li>the connector is registered, and it and each of its {@code tasks.max} tasks are RUNNING;
 *   <li>each task runs in this worker (its {@link IngestMetrics} are published here). Right after a restart the status
 *       topic can still hold the previous process's RUNNING; this tells them apart. The check is meant for the worker
 *       that runs the connector's tasks, as in the stack and the compose deployment (one worker per group);
 *   <li>each task's MQTT client is connected;
 *   <li>no message has waited longer than {@code maxPendingAge} between its arrival from MQTT and Kafka's
 *       acknowledgement of its record or dead letter. An idle connector (nothing pending) is healthy; a record that
 *       blocks the session, a producer that no longer sends or a Kafka that does not answer makes the oldest pending
 *       message age past the limit.
 * </ol>
 *
 * @param healthy whether every rule holds
 * @param problems one sentence per broken rule; empty when healthy
 * @param status the connector status the verdict used, if the connector is registered
 * @param progress the progress of the tasks running in this worker, by task number
 */
public record IngestHealth(
        boolean healthy,
        List<String> problems,
        Optional<ConnectorStatus> status,
        Map<Integer, TaskProgress> progress,
        Duration maxPendingAge) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public IngestHealth {
        problems = List.copyOf(requireNonNull(problems, "problems is null"));
        requireNonNull(status, "status is null");
        progress = Map.copyOf(new TreeMap<>(requireNonNull(progress, "progress is null")));
        requireNonNull(maxPendingAge, "maxPendingAge is null");
        if (healthy != problems.isEmpty()) {
            throw new IllegalArgumentException("healthy must be true exactly when there is no problem");
        }
    }

    /**
     * Judges the connector.
     *
     * @param connectorName the connector's name
     * @param expectedTasks the connector's {@code tasks.max}
     * @param status its status, empty when it is not registered
     * @param progress the progress of its tasks running in this worker
     * @param maxPendingAge how long a message may wait for Kafka
     */
    public static IngestHealth evaluate(
            String connectorName,
            int expectedTasks,
            Optional<ConnectorStatus> status,
            Map<Integer, TaskProgress> progress,
            Duration maxPendingAge) {
        requireNonNull(connectorName, "connectorName is null");
        List<String> problems = new ArrayList<>();
        if (status.isEmpty()) {
            problems.add("Connector " + connectorName + " is not registered");
        } else {
            ConnectorStatus current = status.get();
            if (!current.state().equals(ConnectorStatus.RUNNING)) {
                problems.add("Connector " + connectorName + " is " + current.state());
            }
            if (current.tasks().size() != expectedTasks) {
                problems.add("Connector " + connectorName + " has "
                        + current.tasks().size() + " task(s), not " + expectedTasks);
            }
            for (ConnectorStatus.TaskStatus task : current.tasks()) {
                if (!task.running()) {
                    problems.add("Task " + task.id() + " is " + task.state()
                            + task.trace().map(trace -> ": " + firstLine(trace)).orElse(""));
                }
            }
        }
        for (int task = 0; task < expectedTasks; task++) {
            TaskProgress taskProgress = progress.get(task);
            if (taskProgress == null) {
                problems.add("Task " + task + " does not run in this worker");
                continue;
            }
            if (!taskProgress.mqttConnected()) {
                problems.add("Task " + task + " is not connected to the MQTT broker");
            }
            if (taskProgress.oldestPendingAge().compareTo(maxPendingAge) > 0) {
                problems.add("Task " + task + " has " + taskProgress.pending() + " message(s) pending; the oldest has"
                        + " waited " + taskProgress.oldestPendingAge().toSeconds() + " s for Kafka, more than "
                        + maxPendingAge.toSeconds() + " s");
            }
        }
        return new IngestHealth(problems.isEmpty(), problems, status, progress, maxPendingAge);
    }

    /** The answer of the health endpoint. */
    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("healthy", healthy);
        ArrayNode problemList = root.putArray("problems");
        problems.forEach(problemList::add);
        root.put("status", status.map(ConnectorStatus::summary).orElse("not registered"));
        root.put("max_pending_age_ms", maxPendingAge.toMillis());
        ArrayNode tasks = root.putArray("tasks");
        for (TaskProgress task : new TreeMap<>(progress).values()) {
            ObjectNode node = tasks.addObject();
            node.put("id", task.taskId());
            node.put("mqtt_connected", task.mqttConnected());
            node.put("received", task.received());
            node.put("written", task.written());
            node.put("dead_lettered", task.deadLettered());
            node.put("pending", task.pending());
            node.put("oldest_pending_age_ms", task.oldestPendingAge().toMillis());
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the health report as JSON", e);
        }
    }

    private static String firstLine(String trace) {
        int end = trace.indexOf('\n');
        return end < 0 ? trace : trace.substring(0, end);
    }
}
