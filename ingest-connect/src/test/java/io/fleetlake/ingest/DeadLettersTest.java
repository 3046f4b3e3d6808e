package io.fleetlake.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class DeadLettersTest {
    private static final Instant RECEIVED_AT = Instant.parse("2026-01-02T03:04:05.678Z");
    private static final Instant REJECTED_AT = Instant.parse("2026-01-02T03:04:06Z");

    @Test
    void smallPayloadIsKeptWholeWithEveryHeader() {
        SourceRecord deadLetter = DeadLetters.of(
                message("fleet/VH-7/position", "{\"vehicle_id\":\"VH-7\"}".getBytes(UTF_8)),
                "gps.dlq.positions",
                4096,
                "Kafka refused it",
                REJECTED_AT);

        assertThat(deadLetter.topic()).isEqualTo("gps.dlq.positions");
        assertThat(deadLetter.key()).isEqualTo("VH-7");
        assertThat(deadLetter.value()).isEqualTo("{\"vehicle_id\":\"VH-7\"}".getBytes(UTF_8));
        assertThat(deadLetter.timestamp()).isEqualTo(RECEIVED_AT.toEpochMilli());
        assertThat(headers(deadLetter))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "mqtt.topic", "fleet/VH-7/position",
                        "mqtt.received-at", RECEIVED_AT.toEpochMilli(),
                        "dlq.reason", "INGEST_REFUSED",
                        "dlq.detail", "Kafka refused it",
                        "dlq.rejected-at", REJECTED_AT.toEpochMilli(),
                        "dlq.original-size", 21L,
                        "dlq.truncated", "false"));
    }

    @Test
    void largePayloadIsCutToThePreview() {
        byte[] payload = new byte[5000];
        payload[99] = 7;

        SourceRecord deadLetter = DeadLetters.of(message("fleet/VH-7/position", payload), "dlq", 100, "x", REJECTED_AT);

        assertThat((byte[]) deadLetter.value()).hasSize(100).endsWith(7);
        assertThat(headers(deadLetter))
                .containsEntry("dlq.truncated", "true")
                .containsEntry("dlq.original-size", 5000L);
    }

    @Test
    void worstCaseDeadLetterFitsThePreviewPlusTheOverhead() {
        // Longest texts MQTT allows (65,535 bytes of 3-byte characters), a detail far beyond its bound.
        String huge = "€".repeat(65_535 / 3);
        SourceRecord deadLetter = DeadLetters.of(
                message("fleet/" + huge + "/position", new byte[2_000_000]),
                "d".repeat(249),
                4096,
                "€".repeat(100_000),
                Instant.ofEpochMilli(Long.MAX_VALUE));

        assertThat(RecordSizes.serializedSize(deadLetter)).isLessThanOrEqualTo(4096 + DeadLetters.MAXIMUM_OVERHEAD);
        assertThat(deadLetter.key().toString().getBytes(UTF_8)).hasSizeLessThanOrEqualTo(1024);
        assertThat(headers(deadLetter).get("dlq.detail").toString())
                .startsWith("€€€")
                .doesNotContain("\uFFFD");
    }

    @Test
    void truncationNeverSplitsACharacter() {
        assertThat(DeadLetters.truncate("aé€", 1)).isEqualTo("a");
        assertThat(DeadLetters.truncate("aé€", 2)).isEqualTo("a");
        assertThat(DeadLetters.truncate("aé€", 3)).isEqualTo("aé");
        assertThat(DeadLetters.truncate("aé€", 5)).isEqualTo("aé");
        assertThat(DeadLetters.truncate("aé€", 6)).isEqualTo("aé€");
    }

    private static MqttInboundMessage message(String topic, byte[] payload) {
        return new MqttInboundMessage(topic, payload, RECEIVED_AT, () -> {});
    }

    private static Map<String, Object> headers(SourceRecord record) {
        Map<String, Object> headers = new HashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value());
        }
        return headers;
    }
}
