package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One QoS 1 message received from the broker and not yet acknowledged. Until {@link #acknowledgement()} runs, the
 * broker keeps the message in the client's session and delivers it again after a reconnect.
 *
 * @param topic the MQTT topic the message was published on
 * @param payload the payload bytes exactly as published
 * @param receivedAt when this connector received the message
 * @param acknowledgement sends the PUBACK for this message
 */
record MqttInboundMessage(String topic, byte[] payload, Instant receivedAt, Acknowledgement acknowledgement) {
    MqttInboundMessage {
        requireNonNull(topic, "topic is null");
        requireNonNull(payload, "payload is null");
        requireNonNull(receivedAt, "receivedAt is null");
        requireNonNull(acknowledgement, "acknowledgement is null");
    }

    /** Acknowledges one message to the broker; the broker then forgets it. */
    @FunctionalInterface
    interface Acknowledgement {
        void acknowledge();
    }
}
