package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A rejected record as a dead letter, ready to be reprocessed: the original key and value byte for byte, the original
 * Kafka timestamp (the receive time, so the time rules give the same verdict when it is republished), the original
 * {@link MessageHeaders#MQTT_TOPIC} and {@link MessageHeaders#MQTT_RECEIVED_AT} headers when the record had them, and
 * why and where from as {@link MessageHeaders}{@code .DLQ_*} headers (UTF-8 text; numbers in decimal, times in epoch
 * milliseconds).
 */
public final class DeadLetterSerializationSchema implements KafkaRecordSerializationSchema<RejectedRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public DeadLetterSerializationSchema(String topic) {
        this.topic = requireNonNull(topic, "topic is null");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(RejectedRecord record, KafkaSinkContext context, Long timestamp) {
        RawRecord source = record.source();
        List<Header> headers = new ArrayList<>();
        if (source.mqttTopic() != null) {
            headers.add(header(MessageHeaders.MQTT_TOPIC, source.mqttTopic()));
        }
        if (source.mqttReceivedAt() != null) {
            headers.add(header(MessageHeaders.MQTT_RECEIVED_AT, Long.toString(source.mqttReceivedAt())));
        }
        headers.add(header(MessageHeaders.DLQ_REASON, record.reason().name()));
        headers.add(header(MessageHeaders.DLQ_DETAIL, record.detail()));
        headers.add(header(MessageHeaders.DLQ_SOURCE_TOPIC, source.topic()));
        headers.add(header(MessageHeaders.DLQ_SOURCE_PARTITION, Integer.toString(source.partition())));
        headers.add(header(MessageHeaders.DLQ_SOURCE_OFFSET, Long.toString(source.offset())));
        headers.add(header(
                MessageHeaders.DLQ_REJECTED_AT,
                Long.toString(record.rejectedAt().toEpochMilli())));
        return new ProducerRecord<>(
                topic, null, source.timestamp().toEpochMilli(), source.key(), source.value(), headers);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
