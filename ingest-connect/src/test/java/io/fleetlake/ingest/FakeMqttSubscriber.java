package io.fleetlake.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Stands in for the MQTT client: the test delivers messages, and every acknowledgement is recorded (also one sent after
 * {@link #close()}, so that a test can see it).
 */
final class FakeMqttSubscriber implements MqttSubscriber {
    static final Instant RECEIVED_AT = Instant.parse("2025-06-01T08:30:00.123Z");

    private final MqttClientSettings settings;
    private final List<String> acknowledged = new CopyOnWriteArrayList<>();
    private volatile Consumer<MqttInboundMessage> consumer;
    private final CompletableFuture<Void> subscribed;
    private volatile boolean closed;

    /** A subscriber whose broker acknowledges the subscription at once. */
    FakeMqttSubscriber(MqttClientSettings settings) {
        this(settings, CompletableFuture.completedFuture(null));
    }

    /** A subscriber whose subscription completes (or fails) when the test completes {@code subscribed}. */
    FakeMqttSubscriber(MqttClientSettings settings, CompletableFuture<Void> subscribed) {
        this.settings = settings;
        this.subscribed = subscribed;
    }

    @Override
    public CompletableFuture<Void> start(Consumer<MqttInboundMessage> consumer) {
        this.consumer = consumer;
        return subscribed;
    }

    /** Delivers a message whose payload is {@code payload}; its acknowledgement records the payload. */
    void deliver(String topic, String payload) {
        deliver(topic, payload.getBytes(UTF_8), payload, RECEIVED_AT);
    }

    /** Delivers a message received at {@code receivedAt}; its acknowledgement records {@code label}. */
    void deliver(String topic, byte[] payload, String label, Instant receivedAt) {
        if (consumer == null || closed) {
            throw new IllegalStateException("not started or closed");
        }
        consumer.accept(new MqttInboundMessage(topic, payload, receivedAt, () -> acknowledged.add(label)));
    }

    @Override
    public boolean connected() {
        return consumer != null && !closed;
    }

    @Override
    public void close() {
        closed = true;
    }

    MqttClientSettings settings() {
        return settings;
    }

    List<String> acknowledged() {
        return List.copyOf(acknowledged);
    }

    boolean closed() {
        return closed;
    }
}
