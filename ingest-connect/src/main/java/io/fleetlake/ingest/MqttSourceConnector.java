package io.fleetlake.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Connect source that subscribes to MQTT with QoS 1 and writes each message's payload, unchanged, to a Kafka
 * topic keyed by vehicle id.
 *
 * <p>Supports exactly-once source delivery with poll transaction boundaries: each batch returned by
 * {@link MqttSourceTask#poll()} is one Kafka transaction, and an MQTT message is acknowledged only after the
 * transaction holding its record committed (see {@link MqttSourceTask} for the invariant). Task {@code n} connects as
 * {@code <mqtt.client-id-prefix>-<n>}; with {@code tasks.max > 1} the tasks share the messages through the shared
 * subscription {@code $share/<mqtt.client-id-prefix>/<mqtt.topic-filter>}.
 */
public final class MqttSourceConnector extends SourceConnector {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSourceConnector.class);

    private Map<String, String> settings = Map.of();

    @Override
    public String version() {
        return ConnectorVersion.current();
    }

    @Override
    public void start(Map<String, String> properties) {
        MqttSourceConfig config = new MqttSourceConfig(properties);
        settings = Map.copyOf(properties);
        LOG.info(
                "Starting MQTT source connector: {} on {} to Kafka topic {}",
                config.topicFilter(),
                config.serverUri(),
                config.kafkaTopic());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return MqttSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> taskConfigs = new ArrayList<>(maxTasks);
        for (int taskNumber = 0; taskNumber < maxTasks; taskNumber++) {
            Map<String, String> taskConfig = new HashMap<>(settings);
            taskConfig.put(MqttSourceTaskConfig.TASK_NUMBER, Integer.toString(taskNumber));
            taskConfig.put(MqttSourceTaskConfig.TASK_COUNT, Integer.toString(maxTasks));
            taskConfigs.add(Map.copyOf(taskConfig));
        }
        return taskConfigs;
    }

    @Override
    public void stop() {
        LOG.info("Stopped MQTT source connector");
    }

    @Override
    public ConfigDef config() {
        return MqttSourceConfig.configDef();
    }

    /** Adds the checks that span keys (a password needs a user name) to the per-key validation. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config result = super.validate(connectorConfigs);
        boolean keysValid = result.configValues().stream()
                .allMatch(value -> value.errorMessages().isEmpty());
        if (keysValid) {
            try {
                new MqttSourceConfig(connectorConfigs);
            } catch (ConfigException e) {
                result.configValues().stream()
                        .filter(value -> value.name().equals(MqttSourceConfig.PASSWORD))
                        .forEach(value -> value.addErrorMessage(e.getMessage()));
            }
        }
        return result;
    }

    /** Each poll batch becomes one transaction; acknowledgements wait for its commit. */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }
}
