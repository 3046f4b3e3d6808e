package io.fleetlake.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.MessageHeaders;
import java.time.Instant;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MqttSourceRecordsTest {
    private static final Instant RECEIVED_AT = Instant.parse("2025-06-01T08:30:00.123Z");

    @Test
    void buildsKeyValueHeadersAndTimestampFromThePublish() {
        byte[] payload = {(byte) 0xC3, 0x01, 0x00, (byte) 0xFF, 0x7F};
        MqttInboundMessage message = new MqttInboundMessage("fleet/truck-42/position", payload, RECEIVED_AT, () -> {});

        SourceRecord record = MqttSourceRecords.toSourceRecord(message, "gps.raw.positions");

        assertThat(record.topic()).isEqualTo("gps.raw.positions");
        assertThat(record.kafkaPartition()).isNull();
        assertThat(record.key()).isEqualTo("truck-42");
        assertThat(record.keySchema()).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
        assertThat(record.value()).isInstanceOf(byte[].class);
        assertThat((byte[]) record.value()).containsExactly(payload);
        assertThat(record.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
        assertThat(record.timestamp()).isEqualTo(RECEIVED_AT.toEpochMilli());
        assertThat(record.headers()).hasSize(2);
        assertThat(record.headers().lastWithName(MessageHeaders.MQTT_TOPIC))
                .extracting(Header::value)
                .isEqualTo("fleet/truck-42/position");
        assertThat(record.headers().lastWithName(MessageHeaders.MQTT_RECEIVED_AT))
                .extracting(Header::value)
                .isEqualTo(1_748_766_600_123L);
        assertThat(record.sourcePartition()).isNull();
        assertThat(record.sourceOffset()).isNull();
    }

    @Test
    void topicWithoutVehicleIdGivesNullKeyAndStillForwardsThePayload() {
        MqttInboundMessage message =
                new MqttInboundMessage("fleet/position", "{\"v\":1}".getBytes(UTF_8), RECEIVED_AT, () -> {});

        SourceRecord record = MqttSourceRecords.toSourceRecord(message, "gps.raw.positions");

        assertThat(record.key()).isNull();
        assertThat((byte[]) record.value()).isEqualTo("{\"v\":1}".getBytes(UTF_8));
        assertThat(record.headers().lastWithName(MessageHeaders.MQTT_TOPIC).value())
                .isEqualTo("fleet/position");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet/position", "fleet//position", "fleet/a/b/position", "devices/truck-1/position", "/"})
    void topicsOutsideTheLayoutGiveNullKey(String topic) {
        MqttInboundMessage message = new MqttInboundMessage(topic, new byte[] {1}, RECEIVED_AT, () -> {});

        assertThat(MqttSourceRecords.toSourceRecord(message, "t").key()).isNull();
    }

    @Test
    void identicalMessagesGiveDistinctRecords() {
        byte[] sharedEmptyPayload = new byte[0];
        MqttInboundMessage first =
                new MqttInboundMessage("fleet/a/position", sharedEmptyPayload, RECEIVED_AT, () -> {});
        MqttInboundMessage second =
                new MqttInboundMessage("fleet/a/position", sharedEmptyPayload, RECEIVED_AT, () -> {});

        SourceRecord firstRecord = MqttSourceRecords.toSourceRecord(first, "t");
        SourceRecord secondRecord = MqttSourceRecords.toSourceRecord(second, "t");

        assertThat(firstRecord).isNotEqualTo(secondRecord);
        assertThat(firstRecord.value()).isNotSameAs(sharedEmptyPayload);
    }
}
