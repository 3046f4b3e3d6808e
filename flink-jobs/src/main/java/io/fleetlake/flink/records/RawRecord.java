package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.types.RecordSerializers;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

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
 * @param reprocessedFrom the dead letter this record was republished from by {@code fleet dlq reprocess} (header {@code
 *     dlq.reprocessed-from}), or null for a record as the device sent it
 */
@TypeInfo(RawRecord.TypeInfoFactory.class)
public record RawRecord(
        String topic,
        int partition,
        long offset,
        Instant timestamp,
        byte[] key,
        byte[] value,
        String mqttTopic,
        Long mqttReceivedAt,
        String reprocessedFrom) {
    public RawRecord {
        requireNonNull(topic, "topic is null");
        requireNonNull(timestamp, "timestamp is null");
    }

    /** A record as the device sent it, not republished from a dead letter. */
    public RawRecord(
            String topic,
            int partition,
            long offset,
            Instant timestamp,
            byte[] key,
            byte[] value,
            String mqttTopic,
            Long mqttReceivedAt) {
        this(topic, partition, offset, timestamp, key, value, mqttTopic, mqttReceivedAt, null);
    }

    /** Whether an operator fed this record back from the dead letters ({@code fleet dlq reprocess}). */
    public boolean isReprocessed() {
        return reprocessedFrom != null;
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
                && Objects.equals(mqttReceivedAt, that.mqttReceivedAt)
                && Objects.equals(reprocessedFrom, that.reprocessedFrom);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset, timestamp, Arrays.hashCode(key), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return "RawRecord{" + topic + "-" + partition + "@" + offset + ", timestamp=" + timestamp + ", keyBytes="
                + (key == null ? "null" : key.length) + ", valueBytes=" + (value == null ? "null" : value.length)
                + ", mqttTopic=" + mqttTopic + ", mqttReceivedAt=" + mqttReceivedAt
                + (reprocessedFrom == null ? "" : ", reprocessedFrom=" + reprocessedFrom) + "}";
    }

    /** Written by {@link RecordSerializers.RawRecordSerializer}, never reflectively. */
    public static final class TypeInfoFactory extends org.apache.flink.api.common.typeinfo.TypeInfoFactory<RawRecord> {
        @Override
        public TypeInformation<RawRecord> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return RecordSerializers.RAW_RECORD;
        }
    }
}
