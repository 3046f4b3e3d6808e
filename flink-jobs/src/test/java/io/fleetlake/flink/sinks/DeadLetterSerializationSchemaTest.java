package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;

class DeadLetterSerializationSchemaTest {
    private static final Instant RECEIVED = Instant.ofEpochMilli(1_794_999_000_456L);

    private final DeadLetterSerializationSchema schema = new DeadLetterSerializationSchema(Topics.DLQ_POSITIONS);

    @Test
    void keepsOriginalBytesTimestampAndMqttHeadersAndExplainsInHeaders() {
        byte[] value = {(byte) 0xC3, 0x01, 0x00, (byte) 0xFF, 0x7F};
        byte[] key = "VH-0001".getBytes(StandardCharsets.UTF_8);
        RawRecord source = new RawRecord(
                Topics.RAW_POSITIONS,
                1,
                12345L,
                RECEIVED,
                key,
                value,
                "fleet/VH-0001/position",
                RECEIVED.toEpochMilli() - 3);
        RejectedRecord rejected = RejectedRecord.undecoded(
                source,
                RejectionReason.UNKNOWN_SCHEMA,
                "Schema fingerprint 00ff is not one of the 2 known Position schema versions",
                Instant.ofEpochMilli(1_795_000_000_123L));

        ProducerRecord<byte[], byte[]> record = schema.serialize(rejected, null, 1_795_000_000_999L);

        assertThat(record.topic()).isEqualTo(Topics.DLQ_POSITIONS);
        assertThat(record.value()).isEqualTo(new byte[] {(byte) 0xC3, 0x01, 0x00, (byte) 0xFF, 0x7F});
        assertThat(record.key()).isEqualTo("VH-0001".getBytes(StandardCharsets.UTF_8));
        assertThat(record.partition()).isNull();
        assertThat(record.timestamp()).as("the original receive time").isEqualTo(1_794_999_000_456L);
        assertThat(headers(record))
                .containsExactly(
                        Map.entry(MessageHeaders.MQTT_TOPIC, "fleet/VH-0001/position"),
                        Map.entry(MessageHeaders.MQTT_RECEIVED_AT, "1794999000453"),
                        Map.entry(MessageHeaders.DLQ_REASON, "UNKNOWN_SCHEMA"),
                        Map.entry(
                                MessageHeaders.DLQ_DETAIL,
                                "Schema fingerprint 00ff is not one of the 2 known Position schema versions"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_TOPIC, "gps.raw.positions"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_PARTITION, "1"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_OFFSET, "12345"),
                        Map.entry(MessageHeaders.DLQ_REJECTED_AT, "1795000000123"));
    }

    @Test
    void recordWithoutKeyValueOrMqttHeadersStaysWithout() {
        RawRecord source = new RawRecord(Topics.RAW_POSITIONS, 0, 1L, RECEIVED, null, null, null, null);
        RejectedRecord rejected =
                RejectedRecord.undecoded(source, RejectionReason.MALFORMED_PAYLOAD, "Payload is empty", Instant.EPOCH);

        ProducerRecord<byte[], byte[]> record = schema.serialize(rejected, null, null);

        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(record.timestamp()).isEqualTo(RECEIVED.toEpochMilli());
        assertThat(headers(record))
                .containsEntry(MessageHeaders.DLQ_REASON, "MALFORMED_PAYLOAD")
                .doesNotContainKeys(MessageHeaders.MQTT_TOPIC, MessageHeaders.MQTT_RECEIVED_AT);
    }

    /**
     * A record close to the raw topic's limit plus the dead-letter headers would exceed the producer's request limit,
     * and the producer would refuse it (and, through the sink, fail the job for ever). Measured with Kafka's own size
     * estimate, no dead letter exceeds the limit; a cut one says so.
     */
    @Test
    void deadLetterNeverExceedsTheProducersRequestLimitAndSaysWhenItWasCut() {
        int limit = 64 * 1024;
        DeadLetterSerializationSchema bounded = new DeadLetterSerializationSchema(Topics.DLQ_POSITIONS, limit);
        byte[] key = "VH-0001".getBytes(StandardCharsets.UTF_8);
        for (int payloadSize : new int[] {0, 1_000, limit - 4_000, limit - 100, limit, 3 * limit}) {
            byte[] value = new byte[payloadSize];
            RawRecord source = new RawRecord(
                    Topics.RAW_POSITIONS,
                    0,
                    9L,
                    RECEIVED,
                    key,
                    value,
                    "fleet/VH-0001/position",
                    1L,
                    "gps.dlq.positions/0/3");
            RejectedRecord rejected = RejectedRecord.undecoded(
                    source, RejectionReason.PAYLOAD_TOO_LARGE, "x".repeat(5_000), Instant.EPOCH);

            ProducerRecord<byte[], byte[]> record = bounded.serialize(rejected, null, null);

            int kafkaSize = AbstractRecords.estimateSizeInBytesUpperBound(
                    RecordBatch.CURRENT_MAGIC_VALUE,
                    CompressionType.NONE,
                    record.key(),
                    record.value(),
                    record.headers().toArray());
            assertThat(kafkaSize).as("payload of %s bytes", payloadSize).isLessThanOrEqualTo(limit);
            Map<String, String> headers = headers(record);
            assertThat(headers.get(MessageHeaders.DLQ_DETAIL)).hasSize(DeadLetterSerializationSchema.MAX_DETAIL_CHARS);
            assertThat(headers).containsEntry(MessageHeaders.REPROCESSED_FROM, "gps.dlq.positions/0/3");
            if (payloadSize <= limit - 4_000) {
                assertThat(record.value()).isEqualTo(value);
                assertThat(headers).doesNotContainKey(MessageHeaders.DLQ_TRUNCATED);
            } else {
                assertThat(headers)
                        .containsEntry(MessageHeaders.DLQ_TRUNCATED, "true")
                        .containsEntry(MessageHeaders.DLQ_ORIGINAL_SIZE, Integer.toString(payloadSize));
                assertThat(record.value()).isNotEmpty().hasSizeLessThan(payloadSize);
                assertThat(record.key()).isEqualTo(key);
            }
        }
    }

    /** A record read without a timestamp (-1): Kafka refuses a negative one, so the broker sets it. */
    @Test
    void recordWithoutTimestampGetsTheBrokersTime() {
        RawRecord source =
                new RawRecord(Topics.RAW_POSITIONS, 0, 1L, Instant.ofEpochMilli(-1), null, new byte[] {1}, null, null);
        RejectedRecord rejected =
                RejectedRecord.undecoded(source, RejectionReason.MALFORMED_PAYLOAD, "detail", Instant.EPOCH);

        assertThat(schema.serialize(rejected, null, null).timestamp()).isNull();
    }

    private static Map<String, String> headers(ProducerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
