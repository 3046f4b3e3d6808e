package io.fleetlake.ingest;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.MqttTopics;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/** Turns an MQTT message into the Kafka Connect record written to the raw positions topic. */
final class MqttSourceRecords {
    private MqttSourceRecords() {}

    /**
     * The record for one message: key = vehicle id from the topic ({@code null} when the topic does not follow
     * {@code fleet/<vehicle id>/position}: the payload is still forwarded and the pipeline decides), value = the
     * payload bytes unchanged, headers {@link MessageHeaders#MQTT_TOPIC} and {@link MessageHeaders#MQTT_RECEIVED_AT}
     * (epoch milliseconds), record timestamp = receive time.
     *
     * <p>The record carries no source partition or offset: MQTT has no position to resume from, the broker's
     * persistent session is what survives a restart.
     *
     * <p>The value is a fresh copy of the payload. Connect keeps the records of a transaction in a map keyed by record
     * equality, which compares byte arrays by identity; the MQTT client returns one shared array for every empty
     * payload, so without the copy two empty messages on one topic within a millisecond would be merged and one of
     * them would never be committed (and never acknowledged).
     */
    static SourceRecord toSourceRecord(MqttInboundMessage message, String kafkaTopic) {
        long receivedAtMillis = message.receivedAt().toEpochMilli();
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(MessageHeaders.MQTT_TOPIC, message.topic());
        headers.addLong(MessageHeaders.MQTT_RECEIVED_AT, receivedAtMillis);
        return new SourceRecord(
                null,
                null,
                kafkaTopic,
                null,
                Schema.OPTIONAL_STRING_SCHEMA,
                vehicleId(message.topic()),
                Schema.BYTES_SCHEMA,
                message.payload().clone(),
                receivedAtMillis,
                headers);
    }

    /** The vehicle id of a position topic, or {@code null} when the topic does not follow the layout. */
    static String vehicleId(String topic) {
        // A position topic has exactly three levels. Checked first because MqttTopics.vehicleId throws
        // StringIndexOutOfBoundsException on "fleet/position", where its prefix and suffix overlap.
        if (topic.chars().filter(character -> character == '/').count() != 2) {
            return null;
        }
        return MqttTopics.vehicleId(topic).orElse(null);
    }
}
