package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How far one running task got: what it received from MQTT and what Kafka acknowledged, as published by
 * {@link IngestMetrics} while the task runs in this worker.
 *
 * @param taskId the task number
 * @param received MQTT messages received since the task started (redeliveries included)
 * @param written records Kafka acknowledged on the target topic (their MQTT messages are acknowledged)
 * @param deadLettered dead letters Kafka acknowledged (their MQTT messages are acknowledged)
 * @param pending messages received and not yet acknowledged: queued, on their way to Kafka, or waiting to be
 *     dead-lettered
 * @param oldestPendingAge how long the oldest of those has been waiting; zero when none is pending
 * @param mqttConnected whether the task's MQTT client is connected to the broker
 */
public record TaskProgress(
        int taskId,
        long received,
        long written,
        long deadLettered,
        long pending,
        Duration oldestPendingAge,
        boolean mqttConnected) {
    public TaskProgress {
        requireNonNull(oldestPendingAge, "oldestPendingAge is null");
    }
}
