package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One record of the raw positions topic exactly as it was read: the device payload is not decoded yet, so that a
 * payload that cannot be decoded can be dead-lettered byte for byte.
 *
 * <p>The byte arrays are shared, not copied, for throughput; no operator modifies them.
 *
 * @param topic source topic
 * @param partition source partition
 * @param offset source offset
 * @param timestamp Kafka record timestamp (the connector sets it when it received the MQTT message)
 * @param key Kafka key (the vehicle id as UTF-8), or null
 * @param value device payload, or null for a record without a value
 * @param mqttTopic MQTT topic the payload was published on, or null when the header is absent
 * @param mqttReceivedAt epoch milliseconds at which the connector received the MQTT message, or null
 */
public record RawRecord(
        String topic,
        int partition,
        long offset,
        Instant timestamp,
        byte[] key,
        byte[] value,
        String mqttTopic,
        Long mqttReceivedAt) {
    public RawRecord {
        requireNonNull(topic, "topic is null");
        requireNonNull(timestamp, "timestamp is null");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RawRecord that
                && topic.equals(that.topic)
                && partition == that.partition
                && offset == that.offset
                && timestamp.equals(that.timestamp)
                && Arrays.equals(key, that.key)
                && Arrays.equals(value, that.value)
                && Objects.equals(mqttTopic, that.mqttTopic)
                && Objects.equals(mqttReceivedAt, that.mqttReceivedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset, timestamp, Arrays.hashCode(key), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return "RawRecord{" + topic + "-" + partition + "@" + offset + ", timestamp=" + timestamp + ", keyBytes="
                + (key == null ? "null" : key.length) + ", valueBytes=" + (value == null ? "null" : value.length)
                + ", mqttTopic=" + mqttTopic + ", mqttReceivedAt=" + mqttReceivedAt + "}";
    }
}
