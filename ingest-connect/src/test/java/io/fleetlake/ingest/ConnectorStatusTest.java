package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConnectorStatusTest {
    @Test
    void runningConnectorWithRunningTasksIsHealthy() {
        ConnectorStatus status = ConnectorStatus.fromJson(
                """
                {"name":"mqtt-positions","connector":{"state":"RUNNING","worker_id":"127.0.0.1:8083"},
                 "tasks":[{"id":0,"state":"RUNNING","worker_id":"127.0.0.1:8083"},
                          {"id":1,"state":"RUNNING","worker_id":"127.0.0.1:8083"}],"type":"source"}
                """);

        assertThat(status.name()).isEqualTo("mqtt-positions");
        assertThat(status.running()).isTrue();
        assertThat(status.failed()).isFalse();
        assertThat(status.summary()).isEqualTo("connector RUNNING, tasks [0 RUNNING, 1 RUNNING]");
    }

    @Test
    void failedTaskIsUnhealthyAndCarriesItsTrace() {
        ConnectorStatus status = ConnectorStatus.fromJson(
                """
                {"name":"mqtt-positions","connector":{"state":"RUNNING","worker_id":"w"},
                 "tasks":[{"id":0,"state":"FAILED","worker_id":"w","trace":"org.apache.kafka...TimeoutException"}],
                 "type":"source"}
                """);

        assertThat(status.running()).isFalse();
        assertThat(status.failed()).isTrue();
        assertThat(status.firstTrace()).contains("org.apache.kafka...TimeoutException");
    }

    @Test
    void connectorWithoutTasksIsNotHealthy() {
        ConnectorStatus status = ConnectorStatus.fromJson(
                """
                {"name":"mqtt-positions","connector":{"state":"RUNNING","worker_id":"w"},"tasks":[],"type":"source"}
                """);

        assertThat(status.running()).isFalse();
        assertThat(status.failed()).isFalse();
    }

    @Test
    void rejectsADocumentThatIsNotAStatus() {
        assertThatThrownBy(() -> ConnectorStatus.fromJson("{\"error_code\":404,\"message\":\"No status\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ConnectorStatus.fromJson("not json")).isInstanceOf(IllegalArgumentException.class);
    }
}
