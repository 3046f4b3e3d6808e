package io.fleetlake.ingest;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The MQTT side of a source task: one client with a persistent session that delivers the messages of its subscription
 * in arrival order and acknowledges each only when asked to. This is the seam between {@link MqttSourceTask} and the
 * MQTT client library, so that the acknowledge-after-commit rule can be tested without a broker.
 */
interface MqttSubscriber extends AutoCloseable {
    /**
     * Connects, subscribes and from then on hands every message to {@code consumer}, one at a time and in arrival
     * order. Returns without waiting for the broker: a broker that is down is retried in the background.
     *
     * @return completes when the broker acknowledged the subscription; fails when it refused it
     */
    CompletableFuture<Void> start(Consumer<MqttInboundMessage> consumer);

    /** Whether the client is connected to the broker now (it reconnects by itself after a lost connection). */
    boolean connected();

    /**
     * Disconnects without acknowledging anything further. The session stays on the broker until its expiry, so the
     * messages not acknowledged are delivered again to the next client with the same id.
     */
    @Override
    void close();

    /** Creates the subscriber of one task. */
    @FunctionalInterface
    interface Factory {
        MqttSubscriber create(MqttClientSettings settings);
    }
}
