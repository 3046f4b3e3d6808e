package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.sinks.SourceHeaders.header;
import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A position that arrived after its window closed, as a record of the late-positions topic: the original payload
 * bytes as value, the vehicle id as key (UTF-8), the original Kafka timestamp (the receive time), the original
 * {@link MessageHeaders#MQTT_TOPIC} and {@link MessageHeaders#MQTT_RECEIVED_AT} headers when present, where it was read
 * ({@link MessageHeaders#DLQ_SOURCE_TOPIC}, {@link MessageHeaders#DLQ_SOURCE_PARTITION},
 * {@link MessageHeaders#DLQ_SOURCE_OFFSET}) and {@link MessageHeaders#LATE_EVENT_TIME}, its event time in epoch
 * milliseconds: with the key it names the (vehicle, minute) a backfill must recompute. Header values are UTF-8 text.
 */
public final class LatePositionSerializationSchema implements KafkaRecordSerializationSchema<EnrichedPosition> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public LatePositionSerializationSchema(String topic) {
        this.topic = requireNonNull(topic, "topic is null");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(EnrichedPosition late, KafkaSinkContext context, Long timestamp) {
        RawRecord source = late.source();
        List<Header> headers = new ArrayList<>();
        if (source.mqttTopic() != null) {
            headers.add(header(MessageHeaders.MQTT_TOPIC, source.mqttTopic()));
        }
        if (source.mqttReceivedAt() != null) {
            headers.add(header(MessageHeaders.MQTT_RECEIVED_AT, Long.toString(source.mqttReceivedAt())));
        }
        SourceHeaders.addReadFrom(headers, source);
        headers.add(header(
                MessageHeaders.LATE_EVENT_TIME,
                Long.toString(late.position().eventTime().toEpochMilli())));
        return new ProducerRecord<>(
                topic,
                null,
                source.timestamp().toEpochMilli(),
                late.vehicleId().getBytes(StandardCharsets.UTF_8),
                source.value(),
                headers);
    }
}
