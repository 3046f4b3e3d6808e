package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.operations.inspect.ConnectInspector.TaskState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectInspectorTest {
    @Test
    void aFailedTaskKeepsTheFirstLineOfItsTrace() throws Exception {
        String status =
                """
                {"name": "mqtt-positions", "connector": {"state": "RUNNING", "worker_id": "127.0.0.1:18083"},
                 "tasks": [{"id": 0, "state": "FAILED", "worker_id": "127.0.0.1:18083",
                            "trace": "org.apache.kafka.connect.errors.ConnectException: broker gone\\n\\tat x.y(Z.java:1)"}],
                 "type": "source"}
                """;

        ConnectorState state = ConnectInspector.parse("mqtt-positions", new ObjectMapper().readTree(status));

        assertThat(state)
                .isEqualTo(new ConnectorState(
                        "mqtt-positions",
                        "RUNNING",
                        List.of(new TaskState(
                                0,
                                "FAILED",
                                Optional.of("org.apache.kafka.connect.errors.ConnectException: broker gone")))));
        assertThat(state.running()).isFalse();
    }

    @Test
    void runningMeansTheConnectorAndEveryTaskRun() throws Exception {
        String status =
                """
                {"connector": {"state": "RUNNING"}, "tasks": [{"id": 0, "state": "RUNNING"}]}
                """;

        assertThat(ConnectInspector.parse("c", new ObjectMapper().readTree(status))
                        .running())
                .isTrue();
        assertThat(new ConnectorState("c", "RUNNING", List.of()).running()).isFalse();
    }

    @Test
    void theWorkersHealthReportAddsUpItsTasks() throws Exception {
        String health =
                """
                {"healthy": false, "problems": ["Task 1 is not connected to the MQTT broker"],
                 "status": "RUNNING, tasks 0 RUNNING, 1 RUNNING", "max_pending_age_ms": 60000,
                 "tasks": [{"id": 0, "mqtt_connected": true, "received": 10, "written": 8, "dead_lettered": 0,
                            "pending": 2, "oldest_pending_age_ms": 1500},
                           {"id": 1, "mqtt_connected": false, "received": 4, "written": 4, "dead_lettered": 0,
                            "pending": 0, "oldest_pending_age_ms": 0}]}
                """;

        assertThat(ConnectInspector.parseIngestHealth(new ObjectMapper().readTree(health)))
                .isEqualTo(new ConnectInspector.IngestWorkerHealth(
                        false, List.of("Task 1 is not connected to the MQTT broker"), 2, 1500));
    }
}
