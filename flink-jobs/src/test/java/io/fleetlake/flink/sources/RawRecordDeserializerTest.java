package io.fleetlake.flink.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RawRecordDeserializerTest {
    private final RawRecordDeserializer deserializer = new RawRecordDeserializer();

    @Test
    void keepsBytesLineageAndMqttHeaders() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(MessageHeaders.MQTT_TOPIC, utf8("fleet/VH-0001/position")));
        headers.add(new RecordHeader(MessageHeaders.MQTT_RECEIVED_AT, utf8("1795000000000")));
        headers.add(new RecordHeader("unrelated", utf8("x")));

        List<RawRecord> records = deserialize(record(headers, utf8("VH-0001"), new byte[] {1, 2, 3}));

        assertThat(records)
                .containsExactly(new RawRecord(
                        Topics.RAW_POSITIONS,
                        1,
                        77L,
                        Instant.ofEpochMilli(1_795_000_000_500L),
                        utf8("VH-0001"),
                        new byte[] {1, 2, 3},
                        "fleet/VH-0001/position",
                        1_795_000_000_000L));
    }

    /** The reprocessing command marks what it republishes; the jump check reads the mark. */
    @Test
    void keepsTheMarkOfARecordRepublishedFromTheDeadLetters() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(MessageHeaders.MQTT_TOPIC, utf8("fleet/VH-0001/position")));
        headers.add(new RecordHeader(MessageHeaders.REPROCESSED_FROM, utf8("gps.dlq.positions/1/42")));

        RawRecord record =
                deserialize(record(headers, utf8("VH-0001"), new byte[] {1})).get(0);

        assertThat(record.reprocessedFrom()).isEqualTo("gps.dlq.positions/1/42");
        assertThat(record.isReprocessed()).isTrue();
        assertThat(deserialize(record(new RecordHeaders(), null, null)).get(0).isReprocessed())
                .isFalse();
    }

    @Test
    void missingOrBadHeadersAndNullValueStillYieldARecord() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(MessageHeaders.MQTT_RECEIVED_AT, utf8("yesterday")));

        List<RawRecord> records = deserialize(record(headers, null, null));

        assertThat(records).singleElement().satisfies(record -> {
            assertThat(record.key()).isNull();
            assertThat(record.value()).isNull();
            assertThat(record.mqttTopic()).isNull();
            assertThat(record.mqttReceivedAt()).isNull();
            assertThat(record.offset()).isEqualTo(77L);
        });
    }

    private List<RawRecord> deserialize(ConsumerRecord<byte[], byte[]> record) {
        List<RawRecord> out = new ArrayList<>();
        deserializer.deserialize(record, new Collector<>() {
            @Override
            public void collect(RawRecord value) {
                out.add(value);
            }

            @Override
            public void close() {}
        });
        return out;
    }

    private static ConsumerRecord<byte[], byte[]> record(RecordHeaders headers, byte[] key, byte[] value) {
        return new ConsumerRecord<>(
                Topics.RAW_POSITIONS,
                1,
                77L,
                1_795_000_000_500L,
                TimestampType.LOG_APPEND_TIME,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                headers,
                Optional.empty());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
