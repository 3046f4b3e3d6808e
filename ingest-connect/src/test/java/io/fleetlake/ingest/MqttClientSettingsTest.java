package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class MqttClientSettingsTest {
    @Test
    void singleTaskSubscribesToThePlainFilter() {
        MqttClientSettings settings = MqttClientSettings.forTask(taskConfig(0, 1, Map.of()));

        assertThat(settings.serverUri()).isEqualTo(URI.create("tcp://127.0.0.1:1883"));
        assertThat(settings.clientId()).isEqualTo("fleet-ingest-0");
        assertThat(settings.subscriptionFilter()).isEqualTo("fleet/+/position");
        assertThat(settings.obsoleteFilters()).containsExactly("$share/fleet-ingest/fleet/+/position");
        assertThat(settings.sessionExpiry()).isEqualTo(Duration.ofDays(7));
        assertThat(settings.receiveMaximum()).isEqualTo(10_000);
        assertThat(settings.username()).isEmpty();
        assertThat(settings.password()).isEmpty();
    }

    @Test
    void severalTasksShareOneSubscriptionNamedAfterThePrefix() {
        MqttClientSettings settings = MqttClientSettings.forTask(taskConfig(
                2, 3, Map.of(MqttSourceConfig.CLIENT_ID_PREFIX, "ingest", MqttSourceConfig.QUEUE_CAPACITY, "7")));

        assertThat(settings.clientId()).isEqualTo("ingest-2");
        assertThat(settings.subscriptionFilter()).isEqualTo("$share/ingest/fleet/+/position");
        assertThat(settings.obsoleteFilters()).containsExactly("fleet/+/position");
        assertThat(settings.receiveMaximum()).isEqualTo(7);
    }

    @Test
    void toStringHidesThePassword() {
        MqttClientSettings settings = MqttClientSettings.forTask(taskConfig(
                0, 1, Map.of(MqttSourceConfig.USERNAME, "ingest", MqttSourceConfig.PASSWORD, "secret-value")));

        assertThat(settings.password())
                .hasValueSatisfying(password -> assertThat(password.value()).isEqualTo("secret-value"));
        assertThat(settings.toString()).contains("ingest").doesNotContain("secret-value");
    }

    @Test
    void taskNumberMustBeBelowTaskCount() {
        assertThatThrownBy(() -> taskConfig(3, 3, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be below mqtt.task-count (3)");
    }

    private static MqttSourceTaskConfig taskConfig(int taskNumber, int taskCount, Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>(settings);
        properties.put(MqttSourceTaskConfig.TASK_NUMBER, Integer.toString(taskNumber));
        properties.put(MqttSourceTaskConfig.TASK_COUNT, Integer.toString(taskCount));
        return new MqttSourceTaskConfig(properties);
    }
}
