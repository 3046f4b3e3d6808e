package io.fleetlake.flink.sources;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps each Kafka record into a {@link RawRecord} without interpreting the payload; decoding happens in its own
 * operator so that a bad payload becomes a dead letter instead of a failing source. The headers it keeps: the MQTT
 * topic and receive time the connector sets, and {@code dlq.reprocessed-from}, which marks a record republished from the
 * dead letters (the jump check exempts it).
 */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RawRecordDeserializer.class);

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        out.collect(new RawRecord(
                record.topic(),
                record.partition(),
                record.offset(),
                Instant.ofEpochMilli(record.timestamp()),
                record.key(),
                record.value(),
                header(record, MessageHeaders.MQTT_TOPIC),
                receivedAt(record),
                header(record, MessageHeaders.REPROCESSED_FROM)));
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null || header.value() == null) {
            return null;
        }
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    private static Long receivedAt(ConsumerRecord<byte[], byte[]> record) {
        String value = header(record, MessageHeaders.MQTT_RECEIVED_AT);
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            // Lineage only: a bad header must not cost the position, so it is logged and left out.
            LOG.warn(
                    "Ignoring header {}='{}' of {}-{}@{}: not epoch milliseconds",
                    MessageHeaders.MQTT_RECEIVED_AT,
                    value,
                    record.topic(),
                    record.partition(),
                    record.offset());
            return null;
        }
    }
}
