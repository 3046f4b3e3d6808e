package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttClientReconnector;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuth;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5Connect;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5RetainHandling;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MqttSubscriber} over the HiveMQ MQTT client: MQTT 5, QoS 1, persistent session ({@code cleanStart=false},
 * session expiry above zero, fixed client id) and manual acknowledgement.
 *
 * <p>Reconnects by itself with exponential back-off (1 s doubling to 10 s), logging every failed attempt, and stops
 * reconnecting once closed so that no client with the task's id outlives the task (a second client with the same id
 * would take the session over from the restarted task).
 */
final class HivemqMqttSubscriber implements MqttSubscriber {
    private static final Logger LOG = LoggerFactory.getLogger(HivemqMqttSubscriber.class);
    private static final Duration INITIAL_RECONNECT_DELAY = Duration.ofSeconds(1);
    private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(10);
    private static final Duration DISCONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final MqttClientSettings settings;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    private final ExecutorService deliveryExecutor;
    private final Mqtt5AsyncClient client;

    HivemqMqttSubscriber(MqttClientSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
        // One thread keeps messages in arrival order and may block on the task's full queue without stalling the
        // client's network thread.
        this.deliveryExecutor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mqtt-delivery-" + settings.clientId());
            thread.setDaemon(true);
            return thread;
        });
        URI serverUri = settings.serverUri();
        Mqtt5ClientBuilder builder = MqttClient.builder()
                .useMqttVersion5()
                .identifier(settings.clientId())
                .serverHost(serverUri.getHost())
                .serverPort(serverUri.getPort())
                .addConnectedListener(context -> onConnected())
                .addDisconnectedListener(this::onDisconnected);
        if (serverUri.getScheme().equals("ssl")) {
            builder = builder.sslWithDefaultConfig();
        }
        // On the client, not on the CONNECT message: the client's reconnects reuse neither the message's credentials,
        // and a broker that admits principals only would refuse every reconnect.
        if (settings.username().isPresent()) {
            var authentication =
                    Mqtt5SimpleAuth.builder().username(settings.username().get());
            settings.password()
                    .ifPresent(
                            password -> authentication.password(password.value().getBytes(StandardCharsets.UTF_8)));
            builder = builder.simpleAuth(authentication.build());
        }
        this.client = builder.buildAsync();
    }

    @Override
    public CompletableFuture<Void> start(Consumer<MqttInboundMessage> consumer) {
        requireNonNull(consumer, "consumer is null");
        // Registered before connecting: a resumed session delivers its unacknowledged messages right after CONNACK,
        // and the client acknowledges by itself any message that no callback is registered for.
        client.publishes(
                MqttGlobalPublishFilter.ALL, publish -> consumer.accept(toMessage(publish)), deliveryExecutor, true);
        LOG.info("Connecting MQTT client {} to {}", settings.clientId(), settings.serverUri());
        client.connect(connectMessage()).whenComplete((connectionAcknowledgement, failure) -> {
            if (failure != null) {
                if (!closed.get()) {
                    LOG.error(
                            "MQTT client {} stopped connecting to {}: {}",
                            settings.clientId(),
                            settings.serverUri(),
                            describe(failure));
                }
                subscribed.completeExceptionally(failure);
                return;
            }
            LOG.info(
                    "MQTT client {} has a session on {} ({})",
                    settings.clientId(),
                    settings.serverUri(),
                    connectionAcknowledgement.isSessionPresent()
                            ? "resumed: unacknowledged messages are delivered again"
                            : "new");
            subscribe();
        });
        return subscribed;
    }

    private Mqtt5Connect connectMessage() {
        return Mqtt5Connect.builder()
                .cleanStart(false)
                .sessionExpiryInterval(settings.sessionExpiry().toSeconds())
                .restrictions()
                .receiveMaximum(settings.receiveMaximum())
                .applyRestrictions()
                .build();
    }

    /**
     * Subscribes after the first connection, also when the session was resumed (so a changed filter or task count
     * takes effect; subscribing again to an existing subscription is harmless). After later reconnections the broker
     * still holds the subscription, or the client restores it when the session had expired.
     */
    private void subscribe() {
        client.subscribeWith()
                .topicFilter(settings.subscriptionFilter())
                .qos(MqttQos.AT_LEAST_ONCE)
                .retainHandling(Mqtt5RetainHandling.SEND_IF_SUBSCRIPTION_DOES_NOT_EXIST)
                .send()
                .whenComplete((subscriptionAcknowledgement, failure) -> {
                    if (failure != null) {
                        IllegalStateException refused = new IllegalStateException("MQTT client "
                                + settings.clientId() + " cannot subscribe to " + settings.subscriptionFilter()
                                + " on " + settings.serverUri() + ": " + describe(failure)
                                + ". Check the broker's authorisation for this client");
                        LOG.error("{}", refused.getMessage());
                        subscribed.completeExceptionally(refused);
                    } else {
                        LOG.info(
                                "MQTT client {} subscribed to {} with QoS 1",
                                settings.clientId(),
                                settings.subscriptionFilter());
                        subscribed.complete(null);
                    }
                });
        for (String obsoleteFilter : settings.obsoleteFilters()) {
            client.unsubscribeWith().topicFilter(obsoleteFilter).send().whenComplete((ignored, failure) -> {
                if (failure != null) {
                    LOG.warn(
                            "MQTT client {} cannot remove its former subscription {}: {}",
                            settings.clientId(),
                            obsoleteFilter,
                            describe(failure));
                }
            });
        }
    }

    private MqttInboundMessage toMessage(Mqtt5Publish publish) {
        return new MqttInboundMessage(
                publish.getTopic().toString(), publish.getPayloadAsBytes(), Instant.now(), publish::acknowledge);
    }

    private void onConnected() {
        if (closed.get()) {
            // Closed while the connection was being set up: leave at once so the session is free for the next task.
            client.disconnect();
            return;
        }
        LOG.info("MQTT client {} connected to {}", settings.clientId(), settings.serverUri());
    }

    private void onDisconnected(MqttClientDisconnectedContext context) {
        if (closed.get() || context.getSource() == MqttDisconnectSource.USER) {
            LOG.info("MQTT client {} disconnected from {}", settings.clientId(), settings.serverUri());
            return;
        }
        MqttClientReconnector reconnector = context.getReconnector();
        Duration delay = reconnectDelay(reconnector.getAttempts());
        LOG.warn(
                "MQTT client {} is not connected to broker {}: {}. Reconnecting in {} ms ({} failed attempts so far)",
                settings.clientId(),
                settings.serverUri(),
                describe(context.getCause()),
                delay.toMillis(),
                reconnector.getAttempts());
        CompletableFuture<Void> delayElapsed = CompletableFuture.runAsync(
                () -> {}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
        // The decision is taken again when the delay has passed: a subscriber closed in the meantime stays closed.
        reconnector.reconnectWhen(delayElapsed, (ignored, failure) -> reconnector.reconnect(!closed.get()));
    }

    @Override
    public boolean connected() {
        return client.getState().isConnected();
    }

    static Duration reconnectDelay(int failedAttempts) {
        int doublings = Math.min(failedAttempts, 4);
        Duration delay = INITIAL_RECONNECT_DELAY.multipliedBy(1L << doublings);
        return delay.compareTo(MAX_RECONNECT_DELAY) > 0 ? MAX_RECONNECT_DELAY : delay;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            client.disconnect().get(DISCONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // Not connected (broker unreachable or still connecting): the closed flag stops every further attempt.
            LOG.debug("MQTT client {} was not connected when closed: {}", settings.clientId(), describe(e));
        } catch (TimeoutException e) {
            LOG.warn(
                    "MQTT client {} did not finish disconnecting from {} within {} s",
                    settings.clientId(),
                    settings.serverUri(),
                    DISCONNECT_TIMEOUT.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while disconnecting MQTT client {}", settings.clientId());
        } finally {
            deliveryExecutor.shutdownNow();
        }
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : ": " + root.getMessage();
        return root.getClass().getSimpleName() + message;
    }
}
