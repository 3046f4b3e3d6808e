package io.fleetlake.stack.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.stack.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.stack.inspect.ConnectInspector.TaskState;
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
}
