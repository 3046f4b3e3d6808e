package io.fleetlake.ingest;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The configuration one {@link MqttSourceTask} receives: the connector's keys plus the task's number and the number of
 * tasks, which {@link MqttSourceConnector#taskConfigs(int)} fills in. They decide the task's MQTT client id and
 * whether it subscribes through a shared subscription.
 */
final class MqttSourceTaskConfig extends MqttSourceConfig {
    static final String TASK_NUMBER = "mqtt.task-number";
    static final String TASK_COUNT = "mqtt.task-count";

    private static final ConfigDef TASK_CONFIG_DEF = configDef()
            .define(
                    TASK_NUMBER,
                    Type.INT,
                    0,
                    Range.atLeast(0),
                    Importance.LOW,
                    "Number of this task, from 0; set by the connector.")
            .define(
                    TASK_COUNT,
                    Type.INT,
                    1,
                    Range.atLeast(1),
                    Importance.LOW,
                    "Number of tasks of the connector; set by the connector.");

    MqttSourceTaskConfig(Map<String, String> properties) {
        super(TASK_CONFIG_DEF, properties);
        if (taskNumber() >= taskCount()) {
            throw new ConfigException(
                    TASK_NUMBER, taskNumber(), "must be below " + TASK_COUNT + " (" + taskCount() + ")");
        }
    }

    int taskNumber() {
        return getInt(TASK_NUMBER);
    }

    int taskCount() {
        return getInt(TASK_COUNT);
    }
}
