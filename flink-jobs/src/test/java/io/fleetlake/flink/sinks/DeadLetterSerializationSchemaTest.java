package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;

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
    private final DeadLetterSerializationSchema schema = new DeadLetterSerializationSchema(Topics.DLQ_POSITIONS);

    @Test
    void keepsOriginalBytesAndExplainsInHeaders() {
        byte[] value = {(byte) 0xC3, 0x01, 0x00, (byte) 0xFF, 0x7F};
        byte[] key = "VH-0001".getBytes(StandardCharsets.UTF_8);
        RejectedRecord rejected = new RejectedRecord(
                value,
                key,
                RejectionReason.UNKNOWN_SCHEMA,
                "Schema fingerprint 00ff is not one of the 1 known Position schema versions",
                Topics.RAW_POSITIONS,
                1,
                12345L,
                Instant.ofEpochMilli(1_795_000_000_123L));

        ProducerRecord<byte[], byte[]> record = schema.serialize(rejected, null, null);

        assertThat(record.topic()).isEqualTo(Topics.DLQ_POSITIONS);
        assertThat(record.value()).isEqualTo(new byte[] {(byte) 0xC3, 0x01, 0x00, (byte) 0xFF, 0x7F});
        assertThat(record.key()).isEqualTo("VH-0001".getBytes(StandardCharsets.UTF_8));
        assertThat(record.partition()).isNull();
        assertThat(headers(record))
                .containsExactly(
                        Map.entry(MessageHeaders.DLQ_REASON, "UNKNOWN_SCHEMA"),
                        Map.entry(
                                MessageHeaders.DLQ_DETAIL,
                                "Schema fingerprint 00ff is not one of the 1 known Position schema versions"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_TOPIC, "gps.raw.positions"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_PARTITION, "1"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_OFFSET, "12345"),
                        Map.entry(MessageHeaders.DLQ_REJECTED_AT, "1795000000123"));
    }

    @Test
    void recordWithoutKeyOrValueStaysWithout() {
        RejectedRecord rejected = new RejectedRecord(
                null,
                null,
                RejectionReason.MALFORMED_PAYLOAD,
                "Payload is empty",
                Topics.RAW_POSITIONS,
                0,
                1L,
                Instant.EPOCH);

        ProducerRecord<byte[], byte[]> record = schema.serialize(rejected, null, null);

        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(headers(record)).containsEntry(MessageHeaders.DLQ_REASON, "MALFORMED_PAYLOAD");
    }

    private static Map<String, String> headers(ProducerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
