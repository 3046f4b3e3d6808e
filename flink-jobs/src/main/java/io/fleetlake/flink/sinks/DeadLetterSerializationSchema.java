package io.fleetlake.flink.sinks;

import static io.fleetlake.flink.sinks.SourceHeaders.header;
import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.PipelineMetricNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializationSchema.InitializationContext;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A rejected record as a dead letter, ready to be reprocessed: the original key and value byte for byte, the original
 * Kafka timestamp (the receive time, so the time rules give the same verdict when it is republished; a record without
 * one, timestamp -1, gets the broker's), the original
 * {@link MessageHeaders#MQTT_TOPIC}, {@link MessageHeaders#MQTT_RECEIVED_AT} and {@link
 * MessageHeaders#REPROCESSED_FROM} headers when the record had them, and why and where from as {@link
 * MessageHeaders}{@code .DLQ_*} headers (UTF-8 text; numbers in decimal, times in epoch milliseconds).
 *
 * <p><b>Size.</b> A dead letter never exceeds {@code maxRecordBytes} (the dead-letter producer's {@code
 * max.request.size}), counted as Kafka counts a record in a batch of its own, so the producer never refuses one and a
 * large payload cannot stop the dead-letter sink. The detail is cut to {@value #MAX_DETAIL_CHARS} characters, the MQTT
 * topic and reprocessing origin to {@value #MAX_HEADER_CHARS}. When the
 * record would still be larger, its value is cut to what fits (then its key, should that not suffice) and the dead
 * letter says so: {@link MessageHeaders#DLQ_TRUNCATED} {@code true} and {@link MessageHeaders#DLQ_ORIGINAL_SIZE}, the
 * original payload size. Such a payload is far above any accepted payload size, so nothing is lost that reprocessing
 * could recover; {@code fleet.rejected_positions} keeps it whole.
 */
public final class DeadLetterSerializationSchema implements KafkaRecordSerializationSchema<RejectedRecord> {
    private static final long serialVersionUID = 1L;
    /** Kafka's default {@code max.request.size}. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1_048_576;

    static final int MAX_DETAIL_CHARS = 2_000;
    /** The MQTT topic and the reprocessing origin: far longer than any valid one (an MQTT topic may have 65,535). */
    static final int MAX_HEADER_CHARS = 1_024;
    /**
     * Kafka's size of a record batch holding one record, beyond key, value and headers: the batch header (61 bytes) and
     * the record's own varints (length, attributes, timestamp and offset deltas, key and value lengths, header count:
     * at most 36 bytes); rounded up.
     */
    static final int RECORD_OVERHEAD_BYTES = 128;
    /** Per header beyond its name and value: the two length varints. */
    private static final int HEADER_OVERHEAD_BYTES = 10;

    private final String topic;
    private final int maxRecordBytes;
    private transient Counter truncated;

    public DeadLetterSerializationSchema(String topic) {
        this(topic, DEFAULT_MAX_RECORD_BYTES);
    }

    /** @param maxRecordBytes the producer's {@code max.request.size}; a dead letter never exceeds it */
    public DeadLetterSerializationSchema(String topic, int maxRecordBytes) {
        this.topic = requireNonNull(topic, "topic is null");
        if (maxRecordBytes < 16 * 1024) {
            throw new IllegalArgumentException(
                    "maxRecordBytes must leave room for the dead-letter headers: at least 16384, got "
                            + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    public void open(InitializationContext context, KafkaSinkContext sinkContext) {
        truncated = context.getMetricGroup().counter(PipelineMetricNames.DEAD_LETTERS_TRUNCATED);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(RejectedRecord record, KafkaSinkContext context, Long timestamp) {
        RawRecord source = record.source();
        List<Header> headers = new ArrayList<>();
        if (source.mqttTopic() != null) {
            headers.add(header(MessageHeaders.MQTT_TOPIC, bounded(source.mqttTopic(), MAX_HEADER_CHARS)));
        }
        if (source.mqttReceivedAt() != null) {
            headers.add(header(MessageHeaders.MQTT_RECEIVED_AT, Long.toString(source.mqttReceivedAt())));
        }
        if (source.reprocessedFrom() != null) {
            headers.add(header(MessageHeaders.REPROCESSED_FROM, bounded(source.reprocessedFrom(), MAX_HEADER_CHARS)));
        }
        headers.add(header(MessageHeaders.DLQ_REASON, record.reason().name()));
        headers.add(header(MessageHeaders.DLQ_DETAIL, bounded(record.detail(), MAX_DETAIL_CHARS)));
        SourceHeaders.addReadFrom(headers, source);
        headers.add(header(
                MessageHeaders.DLQ_REJECTED_AT,
                Long.toString(record.rejectedAt().toEpochMilli())));
        byte[] key = source.key();
        byte[] value = source.value();
        if (size(key, value, headers) > maxRecordBytes) {
            int originalSize = value == null ? 0 : value.length;
            headers.add(header(MessageHeaders.DLQ_TRUNCATED, "true"));
            headers.add(header(MessageHeaders.DLQ_ORIGINAL_SIZE, Integer.toString(originalSize)));
            int room = maxRecordBytes - size(key, null, headers);
            if (room >= 0) {
                value = value == null ? null : Arrays.copyOf(value, Math.min(value.length, room));
            } else {
                // Only a key of nearly the whole limit gets here: the value goes, and the key is cut.
                value = null;
                key = key == null ? null : Arrays.copyOf(key, Math.max(0, key.length + room));
            }
            if (truncated != null) {
                truncated.inc();
            }
        }
        // Kafka refuses a negative timestamp; a record read without one (-1) gets the broker's time.
        long receivedAt = source.timestamp().toEpochMilli();
        return new ProducerRecord<>(topic, null, receivedAt < 0 ? null : receivedAt, key, value, headers);
    }

    /** The size Kafka counts for the record in a batch of its own, rounded up. */
    static int size(byte[] key, byte[] value, List<Header> headers) {
        long size = RECORD_OVERHEAD_BYTES + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Header header : headers) {
            size += HEADER_OVERHEAD_BYTES
                    + header.key().getBytes(StandardCharsets.UTF_8).length
                    + header.value().length;
        }
        return (int) Math.min(Integer.MAX_VALUE, size);
    }

    private static String bounded(String text, int maxChars) {
        return text.length() <= maxChars ? text : text.substring(0, maxChars - 3) + "...";
    }
}
