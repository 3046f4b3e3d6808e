package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.RejectionReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Builds the dead letter of an MQTT message that Kafka cannot take: reason {@link RejectionReason#INGEST_REFUSED}.
 *
 * <p>Bounded by construction, so that a dead letter is always accepted where its message was not: the value is at most
 * the first {@code previewSize} bytes of the payload, the key (vehicle id) and the MQTT topic header at most
 * {@value #MAXIMUM_TEXT_BYTES} bytes each, the detail at most {@value #MAXIMUM_DETAIL_BYTES} bytes; everything but the
 * value takes at most {@value #MAXIMUM_OVERHEAD} bytes as the producer counts it. {@link MqttSourceConfig} refuses a
 * preview size that does not leave that room below {@code connect.max-record-size}.
 *
 * <p>Record layout, next to the pipeline's dead letters on the same topic: key = vehicle id from the MQTT topic (or
 * none), value = payload preview, timestamp = receive time, headers {@code mqtt.topic}, {@code mqtt.received-at},
 * {@code dlq.reason} ({@code INGEST_REFUSED}), {@code dlq.detail}, {@code dlq.rejected-at}, {@code dlq.original-size}
 * (payload bytes) and {@code dlq.truncated}. There are no {@code dlq.source-*} headers: the message never had a Kafka
 * position.
 */
final class DeadLetters {
    /** Room for everything but the preview: key, headers, record and batch overhead (worst case about 4.5 KiB). */
    static final int MAXIMUM_OVERHEAD = 8_192;

    static final int MAXIMUM_TEXT_BYTES = 1_024;
    static final int MAXIMUM_DETAIL_BYTES = 2_048;

    private DeadLetters() {}

    /**
     * The dead letter of {@code message}.
     *
     * @param deadLetterTopic the Kafka topic of dead letters
     * @param previewSize most payload bytes kept as the value
     * @param detail why Kafka could not take the message; cut to {@value #MAXIMUM_DETAIL_BYTES} bytes
     * @param rejectedAt when the connector gave up on writing the message itself
     */
    static SourceRecord of(
            MqttInboundMessage message, String deadLetterTopic, int previewSize, String detail, Instant rejectedAt) {
        requireNonNull(message, "message is null");
        requireNonNull(deadLetterTopic, "deadLetterTopic is null");
        requireNonNull(detail, "detail is null");
        requireNonNull(rejectedAt, "rejectedAt is null");
        byte[] payload = message.payload();
        boolean truncated = payload.length > previewSize;
        long receivedAtMillis = message.receivedAt().toEpochMilli();
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(MessageHeaders.MQTT_TOPIC, truncate(message.topic(), MAXIMUM_TEXT_BYTES));
        headers.addLong(MessageHeaders.MQTT_RECEIVED_AT, receivedAtMillis);
        headers.addString(MessageHeaders.DLQ_REASON, RejectionReason.INGEST_REFUSED.name());
        headers.addString(MessageHeaders.DLQ_DETAIL, truncate(detail, MAXIMUM_DETAIL_BYTES));
        headers.addLong(MessageHeaders.DLQ_REJECTED_AT, rejectedAt.toEpochMilli());
        headers.addLong(MessageHeaders.DLQ_ORIGINAL_SIZE, payload.length);
        headers.addString(MessageHeaders.DLQ_TRUNCATED, Boolean.toString(truncated));
        String vehicleId = MqttSourceRecords.vehicleId(message.topic());
        return new SourceRecord(
                null,
                null,
                deadLetterTopic,
                null,
                Schema.OPTIONAL_STRING_SCHEMA,
                vehicleId == null ? null : truncate(vehicleId, MAXIMUM_TEXT_BYTES),
                Schema.BYTES_SCHEMA,
                Arrays.copyOf(payload, Math.min(payload.length, previewSize)),
                receivedAtMillis,
                headers);
    }

    /** The longest prefix of {@code text} whose UTF-8 form has at most {@code maximumBytes} bytes. */
    static String truncate(String text, int maximumBytes) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maximumBytes) {
            return text;
        }
        int end = maximumBytes;
        // Never cut a character in two: step back over UTF-8 continuation bytes (10xxxxxx).
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
