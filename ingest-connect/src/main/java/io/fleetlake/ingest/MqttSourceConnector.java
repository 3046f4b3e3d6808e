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
 * topic keyed by vehicle id; a message Kafka cannot take goes to the dead-letter topic instead.
 *
 * <p>An MQTT message is acknowledged only after Kafka acknowledged its record or its dead letter (see
 * {@link MqttSourceTask} for the invariant). Task {@code n} connects as {@code <mqtt.client-id-prefix>-<n>}; with
 * {@code tasks.max > 1} the tasks share the messages through the shared subscription
 * {@code $share/<mqtt.client-id-prefix>/<mqtt.topic-filter>}.
 *
 * <p>Runs on a worker without exactly-once source support, with {@code errors.tolerance=all} (see
 * {@link ConnectWorkerConfig#connectorProperties()}): the task learns of a record Kafka refused only through
 * {@code commitRecord} without metadata, which an exactly-once worker never calls (it fails the whole transaction, and
 * the task with it, again after every restart).
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

    /**
     * Not supported: a record Kafka refuses would abort the transaction of its whole batch and fail the task after every
     * restart, instead of being dead-lettered.
     */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.UNSUPPORTED;
    }
}
