package io.fleetlake.simulator;

import static java.util.Objects.requireNonNull;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuth;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuthBuilder;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes device messages over MQTT 5 with QoS 1, as the vehicles' devices do.
 *
 * <p>At most {@link FleetSimulatorConfig#maxInFlight()} messages are unacknowledged at a time; {@link #publish} waits
 * for room. The MQTT client also honours the broker's limits from the CONNACK: it sends at most the broker's receive
 * maximum at once (the rest wait in the client), and fails a publish larger than the broker's maximum packet size
 * (counted as failed) instead of sending it. When the connection drops after start-up the client reconnects with growing delays (0.5 s up to 10 s)
 * and sends every unacknowledged message again, so delivery is at-least-once across a broker restart. {@link #close()}
 * waits up to {@link FleetSimulatorConfig#closeTimeout()} for outstanding acknowledgements, then disconnects; messages
 * still unacknowledged then count as failed.
 *
 * <p>Thread-safe. Usage: {@code new MqttPositionPublisher(config)}, {@link #start()}, publish, {@link #close()}.
 */
public final class MqttPositionPublisher implements PositionPublisher, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MqttPositionPublisher.class);

    /** Keeps the client's session, with its unacknowledged messages, through a reconnect. */
    private static final Duration SESSION_EXPIRY = Duration.ofMinutes(5);

    private static final Duration INITIAL_RECONNECT_DELAY = Duration.ofMillis(500);
    private static final Duration MAXIMUM_RECONNECT_DELAY = Duration.ofSeconds(10);
    private static final Duration DISCONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final FleetSimulatorConfig config;
    private final Mqtt5AsyncClient client;
    private final InFlightWindow window;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private final DevicePayloads payloads = new DevicePayloads();

    public MqttPositionPublisher(FleetSimulatorConfig config) {
        this.config = requireNonNull(config, "config is null");
        this.window = new InFlightWindow(config.maxInFlight());
        Mqtt5ClientBuilder builder = MqttClient.builder()
                .useMqttVersion5()
                .identifier(config.clientId())
                .serverHost(config.mqttHost())
                .serverPort(config.mqttPort())
                .addConnectedListener(context -> onConnected())
                .addDisconnectedListener(this::onDisconnected);
        if (config.mqttTls()) {
            builder = builder.sslWithDefaultConfig();
        }
        // On the client, not on the CONNECT message: the client's reconnects (after a broker restart) do not reuse the
        // message's credentials, and a broker that admits principals only would refuse them.
        if (config.mqttUsername().isPresent()) {
            Mqtt5SimpleAuthBuilder.Complete credentials =
                    Mqtt5SimpleAuth.builder().username(config.mqttUsername().get());
            builder = builder.simpleAuth(config.mqttPassword()
                    .map(password -> credentials.password(password.getBytes(StandardCharsets.UTF_8)))
                    .orElse(credentials)
                    .build());
        }
        this.client = builder.buildAsync();
    }

    /**
     * Connects to the broker and waits for the connection.
     *
     * @throws BrokerUnavailableException when the broker cannot be reached or refuses the connection in time
     */
    public void start() {
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            throw new IllegalStateException("The publisher was already started");
        }
        Mqtt5ConnAck connectionAcknowledgement;
        try {
            connectionAcknowledgement = client.connectWith()
                    .cleanStart(true)
                    .sessionExpiryInterval(SESSION_EXPIRY.toSeconds())
                    .send()
                    .get(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            state.set(State.CLOSED);
            throw new BrokerUnavailableException(
                    "Cannot connect to the MQTT broker at " + config.mqttUri() + " as " + config.clientId() + ": "
                            + e.getCause().getMessage() + ". Check that the broker runs, that "
                            + FleetSimulatorConfig.MQTT_URI + " points at it and that the credentials are right",
                    e.getCause());
        } catch (TimeoutException e) {
            state.set(State.CLOSED);
            throw new BrokerUnavailableException(
                    "No MQTT broker answered at " + config.mqttUri() + " within " + config.connectTimeout()
                            + ". Check that the broker runs and that " + FleetSimulatorConfig.MQTT_URI
                            + " points at it",
                    e);
        } catch (InterruptedException e) {
            state.set(State.CLOSED);
            Thread.currentThread().interrupt();
            throw new BrokerUnavailableException("Interrupted while connecting to " + config.mqttUri(), e);
        }
        state.set(State.RUNNING);
        // The client keeps at most the broker's receive maximum unacknowledged (more would get it disconnected) and
        // refuses a publish larger than the maximum packet size itself: both are the broker's limits, logged here.
        LOG.info(
                "Connected to MQTT broker {} as {} (broker receive maximum {}, maximum packet size {} bytes)",
                config.mqttUri(),
                config.clientId(),
                connectionAcknowledgement.getRestrictions().getReceiveMaximum(),
                connectionAcknowledgement.getRestrictions().getMaximumPacketSize());
    }

    @Override
    public CompletableFuture<Void> publish(Position position, PayloadFormat format, int schemaVersion)
            throws InterruptedException {
        requireNonNull(position, "position is null");
        return publishRaw(
                MqttTopics.positionTopic(position.vehicleId()), payloads.encode(position, format, schemaVersion));
    }

    /**
     * Publishes like a firmware 1 device: Avro messages in schema version 1 (without battery level); JSON objects with
     * every measurement the position has.
     */
    public CompletableFuture<Void> publish(Position position, PayloadFormat format) throws InterruptedException {
        return publish(position, format, 1);
    }

    /**
     * Publishes any bytes to any topic with QoS 1, for example a malformed payload or a message sent again. Waits
     * while too many messages are unacknowledged.
     *
     * @return completes when the broker acknowledged the message, exceptionally when it was refused or lost
     */
    public CompletableFuture<Void> publishRaw(String topic, byte[] payload) throws InterruptedException {
        requireNonNull(topic, "topic is null");
        requireNonNull(payload, "payload is null");
        if (state.get() != State.RUNNING) {
            throw new IllegalStateException("The publisher is " + state.get().description + "; call start() first");
        }
        window.enter();
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        try {
            client.publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(payload)
                    .send()
                    .whenComplete((result, failure) -> {
                        if (failure == null) {
                            window.acknowledged();
                            acknowledged.complete(null);
                        } else {
                            window.failed();
                            logFailure(topic, failure);
                            acknowledged.completeExceptionally(failure);
                        }
                    });
        } catch (RuntimeException e) {
            window.failed();
            throw e;
        }
        return acknowledged;
    }

    @Override
    public PublishCounts counts() {
        return window.counts();
    }

    @Override
    public boolean awaitAcknowledgements(Duration timeout) throws InterruptedException {
        return window.awaitEmpty(timeout);
    }

    /** Waits for outstanding acknowledgements up to the close timeout, then disconnects. Idempotent. */
    @Override
    public void close() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous != State.RUNNING) {
            return;
        }
        try {
            if (!window.awaitEmpty(config.closeTimeout())) {
                LOG.warn(
                        "{} messages were still unacknowledged after {}; disconnecting, they count as failed",
                        window.counts().inFlight(),
                        config.closeTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while waiting for acknowledgements; disconnecting from {}", config.mqttUri());
        }
        try {
            // Session expiry 0 ends the client session now, so unacknowledged messages fail instead of lingering.
            client.disconnectWith()
                    .sessionExpiryInterval(0)
                    .send()
                    .get(DISCONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Disconnected from MQTT broker {}; {}", config.mqttUri(), window.counts());
        } catch (ExecutionException e) {
            LOG.warn(
                    "Disconnecting from {} failed: {}",
                    config.mqttUri(),
                    e.getCause().toString());
        } catch (TimeoutException e) {
            LOG.warn("Disconnecting from {} did not finish within {}", config.mqttUri(), DISCONNECT_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while disconnecting from {}", config.mqttUri());
        }
    }

    private void onConnected() {
        if (state.get() == State.CLOSED) {
            // A connection attempt that outlived a failed start() or close(): nobody will use it.
            client.disconnect().whenComplete((ignored, failure) -> {
                if (failure != null) {
                    LOG.debug("Closing an abandoned connection to {} failed", config.mqttUri(), failure);
                }
            });
        } else if (state.get() == State.RUNNING) {
            LOG.info("Reconnected to MQTT broker {}", config.mqttUri());
        }
    }

    private void onDisconnected(MqttClientDisconnectedContext context) {
        // Only a connection that start() established is re-established; a failing start() reports its own error.
        if (context.getSource() == MqttDisconnectSource.USER || state.get() != State.RUNNING) {
            return;
        }
        int attempt = context.getReconnector().getAttempts();
        long delayMillis = Math.min(
                MAXIMUM_RECONNECT_DELAY.toMillis(), INITIAL_RECONNECT_DELAY.toMillis() << Math.min(attempt, 10));
        if (attempt == 0) {
            LOG.warn(
                    "Connection to MQTT broker {} lost ({}); reconnecting in {} ms, unacknowledged messages will be"
                            + " sent again",
                    config.mqttUri(),
                    context.getCause().getMessage(),
                    delayMillis);
        } else {
            LOG.warn(
                    "Reconnect attempt {} to MQTT broker {} failed ({}); next attempt in {} ms",
                    attempt,
                    config.mqttUri(),
                    context.getCause().getMessage(),
                    delayMillis);
        }
        context.getReconnector()
                .reconnect(true)
                .republishIfSessionExpired(true)
                .delay(delayMillis, TimeUnit.MILLISECONDS);
    }

    private void logFailure(String topic, Throwable failure) {
        if (failureLogged.compareAndSet(false, true)) {
            LOG.warn("Publishing to {} failed; later failures are only counted (and logged at debug)", topic, failure);
        } else {
            LOG.debug("Publishing to {} failed", topic, failure);
        }
    }

    private enum State {
        NEW("not started"),
        STARTING("starting"),
        RUNNING("running"),
        CLOSED("closed");

        private final String description;

        State(String description) {
            this.description = description;
        }
    }
}
