package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class LatePositionSerializationSchemaTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:45.250Z");

    @Test
    void latePositionKeepsItsBytesItsLineageAndNamesItsMinute() {
        EnrichedPosition late = TestRecords.enriched(TestRecords.position("VH-0001", EVENT_TIME), 3, 1234);

        ProducerRecord<byte[], byte[]> record =
                new LatePositionSerializationSchema(Topics.LATE_POSITIONS).serialize(late, null, null);

        assertThat(record.topic()).isEqualTo("gps.late.positions");
        assertThat(record.partition()).as("partitioned by key").isNull();
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("VH-0001");
        assertThat(record.value()).isSameAs(late.source().value());
        assertThat(record.timestamp()).isEqualTo(TestRecords.KAFKA_TIME.toEpochMilli());
        assertThat(headers(record))
                .containsExactly(
                        Map.entry(MessageHeaders.MQTT_TOPIC, "fleet/VH-0001/position"),
                        Map.entry(
                                MessageHeaders.MQTT_RECEIVED_AT,
                                Long.toString(TestRecords.KAFKA_TIME.toEpochMilli() - 5)),
                        Map.entry(MessageHeaders.DLQ_SOURCE_TOPIC, Topics.RAW_POSITIONS),
                        Map.entry(MessageHeaders.DLQ_SOURCE_PARTITION, "3"),
                        Map.entry(MessageHeaders.DLQ_SOURCE_OFFSET, "1234"),
                        Map.entry(MessageHeaders.LATE_EVENT_TIME, Long.toString(EVENT_TIME.toEpochMilli())));
    }

    @Test
    void transactionalIdsNeverShareAPrefixWithTheDeadLetters() {
        FleetPipelineConfig config = FleetPipelineConfig.from(
                ConfigSource.of(Map.of(FleetPipelineConfig.CHECKPOINT_DIR, "/tmp/checkpoints")));

        assertThat(LatePositionSink.transactionalIdPrefix(config))
                .isEqualTo("late-fleet-pipeline")
                .doesNotStartWith(config.transactionalIdPrefix());
    }

    private static Map<String, String> headers(ProducerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
