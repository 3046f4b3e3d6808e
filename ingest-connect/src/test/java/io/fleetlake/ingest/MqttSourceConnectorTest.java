package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.runtime.isolation.PluginDesc;
import org.apache.kafka.connect.runtime.isolation.Plugins;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;

class MqttSourceConnectorTest {
    private final MqttSourceConnector connector = new MqttSourceConnector();

    @Test
    void everyTaskGetsItsNumberAndTheTaskCount() {
        connector.start(Map.of(MqttSourceConfig.SERVER_URI, "tcp://broker:1883"));

        List<Map<String, String>> taskConfigs = connector.taskConfigs(3);

        assertThat(taskConfigs).hasSize(3);
        for (int taskNumber = 0; taskNumber < 3; taskNumber++) {
            assertThat(taskConfigs.get(taskNumber))
                    .containsEntry(MqttSourceConfig.SERVER_URI, "tcp://broker:1883")
                    .containsEntry(MqttSourceTaskConfig.TASK_NUMBER, Integer.toString(taskNumber))
                    .containsEntry(MqttSourceTaskConfig.TASK_COUNT, "3");
        }
    }

    @Test
    void startRejectsAnInvalidConfiguration() {
        assertThatThrownBy(() -> connector.start(Map.of(MqttSourceConfig.QUEUE_CAPACITY, "-5")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.QUEUE_CAPACITY);
    }

    @Test
    void declaresNoExactlyOnceSupportSoThatRefusedRecordsCanBeDeadLettered() {
        assertThat(connector.exactlyOnceSupport(Map.of())).isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        assertThat(connector.canDefineTransactionBoundaries(Map.of()))
                .isEqualTo(ConnectorTransactionBoundaries.UNSUPPORTED);
        assertThat(connector.taskClass()).isEqualTo(MqttSourceTask.class);
        assertThat(connector.version()).isNotBlank();
    }

    @Test
    void validateReportsAPasswordWithoutUsername() {
        Config result = connector.validate(Map.of(MqttSourceConfig.PASSWORD, "secret"));

        assertThat(errors(result, MqttSourceConfig.PASSWORD))
                .singleElement()
                .asString()
                .contains("mqtt.username");
    }

    @Test
    void validateReportsBadKeys() {
        Config result = connector.validate(Map.of(MqttSourceConfig.SERVER_URI, "http://broker"));

        assertThat(errors(result, MqttSourceConfig.SERVER_URI)).isNotEmpty();
        assertThat(errors(result, MqttSourceConfig.PASSWORD)).isEmpty();
    }

    @Test
    void serviceLoaderFindsTheConnector() {
        assertThat(ServiceLoader.load(SourceConnector.class).stream().map(ServiceLoader.Provider::type))
                .contains(MqttSourceConnector.class);
    }

    @Test
    void connectServiceLoadDiscoveryFindsTheConnectorAndTheConverters() {
        Plugins plugins = new Plugins(Map.of("plugin.discovery", "service_load"));

        assertThat(plugins.sourceConnectors())
                .extracting(PluginDesc::className)
                .contains(MqttSourceConnector.class.getName());
        assertThat(plugins.converters())
                .extracting(PluginDesc::className)
                .contains(
                        "org.apache.kafka.connect.storage.StringConverter",
                        "org.apache.kafka.connect.converters.ByteArrayConverter");
        assertThat(plugins.headerConverters())
                .extracting(PluginDesc::className)
                .contains("org.apache.kafka.connect.storage.StringConverter");
    }

    private static List<String> errors(Config result, String key) {
        return result.configValues().stream()
                .filter(value -> value.name().equals(key))
                .map(ConfigValue::errorMessages)
                .findFirst()
                .orElseThrow();
    }
}
