package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A rejected record as a dead letter: the original key and value byte for byte, and why and where from as headers
 * ({@link MessageHeaders}{@code .DLQ_*}, UTF-8 text; numbers in decimal, times in epoch milliseconds).
 */
public final class DeadLetterSerializationSchema implements KafkaRecordSerializationSchema<RejectedRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public DeadLetterSerializationSchema(String topic) {
        this.topic = requireNonNull(topic, "topic is null");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(RejectedRecord record, KafkaSinkContext context, Long timestamp) {
        List<Header> headers = List.of(
                header(MessageHeaders.DLQ_REASON, record.reason().name()),
                header(MessageHeaders.DLQ_DETAIL, record.detail()),
                header(MessageHeaders.DLQ_SOURCE_TOPIC, record.sourceTopic()),
                header(MessageHeaders.DLQ_SOURCE_PARTITION, Integer.toString(record.sourcePartition())),
                header(MessageHeaders.DLQ_SOURCE_OFFSET, Long.toString(record.sourceOffset())),
                header(
                        MessageHeaders.DLQ_REJECTED_AT,
                        Long.toString(record.rejectedAt().toEpochMilli())));
        return new ProducerRecord<>(topic, null, null, record.originalKey(), record.originalValue(), headers);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
