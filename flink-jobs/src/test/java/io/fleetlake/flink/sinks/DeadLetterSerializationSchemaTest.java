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

    private static Map<String, String> headers(ProducerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
