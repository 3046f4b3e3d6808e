package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.auth.PublishAuthorizer;
import com.hivemq.extension.sdk.api.auth.SimpleAuthenticator;
import com.hivemq.extension.sdk.api.auth.SubscriptionAuthorizer;
import com.hivemq.extension.sdk.api.auth.parameter.PublishAuthorizerInput;
import com.hivemq.extension.sdk.api.auth.parameter.PublishAuthorizerOutput;
import com.hivemq.extension.sdk.api.auth.parameter.SimpleAuthInput;
import com.hivemq.extension.sdk.api.auth.parameter.SimpleAuthOutput;
import com.hivemq.extension.sdk.api.auth.parameter.SubscriptionAuthorizerInput;
import com.hivemq.extension.sdk.api.auth.parameter.SubscriptionAuthorizerOutput;
import com.hivemq.extension.sdk.api.client.parameter.ConnectionAttributeStore;
import com.hivemq.extension.sdk.api.client.parameter.Listener;
import com.hivemq.extension.sdk.api.events.client.ClientLifecycleEventListener;
import com.hivemq.extension.sdk.api.events.client.parameters.AuthenticationSuccessfulInput;
import com.hivemq.extension.sdk.api.events.client.parameters.ConnectionStartInput;
import com.hivemq.extension.sdk.api.events.client.parameters.DisconnectEventInput;
import com.hivemq.extension.sdk.api.packets.connect.ConnackReasonCode;
import com.hivemq.extension.sdk.api.packets.disconnect.DisconnectReasonCode;
import com.hivemq.extension.sdk.api.packets.publish.AckReasonCode;
import com.hivemq.extension.sdk.api.packets.subscribe.SubackReasonCode;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;
import io.fleetlake.identity.PasswordHash;
import io.fleetlake.identity.mqtt.Principal;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.TopicAccess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may connect and what each client may publish and subscribe to, from the fleet's MQTT principals ({@link
 * RegistryFile}, {@code mqtt.identity-file}): anonymous clients, unknown names and wrong secrets are refused (CONNACK
 * 0x86 bad user name or password), and so is a client id that its principal does not own (0x85, see {@link
 * PrincipalRegistry#owner}); every publish and subscription is checked against {@link TopicAccess}. A publish outside
 * the grant gets a PUBACK with reason code NOT_AUTHORIZED (0x87) from MQTT 5 clients, and MQTT 3.1.1 clients, which
 * have no negative PUBACK, are disconnected; a subscription outside it gets SUBACK 0x87. Nothing is dropped silently:
 * every refusal is counted in HiveMQ's metric registry
 * ({@value #PUBLISHES_REFUSED}, {@value #SUBSCRIPTIONS_REFUSED}, {@value #CONNECTS_REFUSED_PREFIX}{@code <reason>}),
 * which the broker's JMX exporter serves as {@code fleet_mqtt_*_refused_total}, and logged (refused publishes and
 * subscriptions: the first 100, then every 1,000th, so that a misconfigured gateway cannot flood the log).
 *
 * <p>Revocation and rotation take effect without a restart: the file is checked every {@code reloadInterval} (its
 * modification time, size and file key), read again when it changed, and every connected client whose principal was
 * removed or whose secret changed since it connected is disconnected (NOT_AUTHORIZED); it cannot connect again with
 * the old secret. Grants are looked up at every publish, so a changed grant applies to the next one. A file that
 * cannot be read or parsed keeps the registry loaded before (logged and counted in {@value #RELOAD_FAILURES}); at the
 * start it fails the broker.
 */
final class IdentityEnforcement implements ExtensionMain {
    private static final Logger LOG = LoggerFactory.getLogger(IdentityEnforcement.class);

    static final String PUBLISHES_REFUSED = "fleet.mqtt.publishes-refused";
    static final String SUBSCRIPTIONS_REFUSED = "fleet.mqtt.subscriptions-refused";
    static final String CONNECTS_REFUSED_PREFIX = "fleet.mqtt.connects-refused.";
    static final String CREDENTIALS = "credentials";
    static final String CLIENT_ID = "client-id";
    static final String PRINCIPALS = "fleet.mqtt.principals";
    static final String RELOADS = "fleet.mqtt.identity-reloads";
    static final String RELOAD_FAILURES = "fleet.mqtt.identity-reload-failures";

    private static final String PRINCIPAL_ATTRIBUTE = "fleet.principal";
    private static final String CONNECTION_ATTRIBUTE = "fleet.connection";

    private final RegistryFile file;
    private final Duration reloadInterval;
    private final AtomicReference<Loaded> loaded = new AtomicReference<>();
    /** The principal and secret every authenticated client connected with, by client id. */
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    private ScheduledFuture<?> reloading;

    IdentityEnforcement(RegistryFile file, Duration reloadInterval) {
        this.file = requireNonNull(file, "file is null");
        this.reloadInterval = requireNonNull(reloadInterval, "reloadInterval is null");
    }

    /** A registry and the stamp of the file content it was read from. */
    private record Loaded(PrincipalRegistry registry, Optional<Object> stamp) {}

    /**
     * One authenticated connection.
     *
     * @param connection distinguishes this connection from a later one with the same client id (a takeover)
     */
    private record Session(String principal, PasswordHash secret, String connection) {}

    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        Optional<Object> stamp = file.stamp();
        PrincipalRegistry registry = file.load();
        loaded.set(new Loaded(registry, stamp));
        if (registry.size() == 0) {
            LOG.warn(
                    "No MQTT principals in {}: every client is refused until some are added (fleet devices --help)",
                    file.path());
        } else {
            LOG.info("Loaded {} MQTT principals from {}", registry.size(), file.path());
        }
        MetricRegistry metrics = Services.metricRegistry();
        Counter publishesRefused = metrics.counter(PUBLISHES_REFUSED);
        Counter subscriptionsRefused = metrics.counter(SUBSCRIPTIONS_REFUSED);
        Counter credentialsRefused = metrics.counter(CONNECTS_REFUSED_PREFIX + CREDENTIALS);
        Counter clientIdRefused = metrics.counter(CONNECTS_REFUSED_PREFIX + CLIENT_ID);
        metrics.register(
                PRINCIPALS, (Gauge<Integer>) () -> loaded.get().registry().size());
        Counter reloads = metrics.counter(RELOADS);
        Counter reloadFailures = metrics.counter(RELOAD_FAILURES);

        SimpleAuthenticator authenticator =
                (authInput, authOutput) -> authenticate(authInput, authOutput, credentialsRefused, clientIdRefused);
        Authorizer authorizer =
                new Authorizer(publishesRefused, subscriptionsRefused, new PositionAccounting.Counters(metrics));
        Services.securityRegistry().setAuthenticatorProvider(providerInput -> authenticator);
        Services.securityRegistry().setAuthorizerProvider(providerInput -> authorizer);
        ClientLifecycleEventListener lifecycle = new Forgetting();
        Services.eventRegistry().setClientLifecycleEventListener(providerInput -> lifecycle);
        reloading = Services.extensionExecutorService()
                .scheduleWithFixedDelay(
                        () -> reload(reloads, reloadFailures),
                        reloadInterval.toMillis(),
                        reloadInterval.toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        if (reloading != null) {
            reloading.cancel(false);
        }
    }

    private void authenticate(
            SimpleAuthInput input, SimpleAuthOutput output, Counter credentialsRefused, Counter clientIdRefused) {
        String clientId = input.getClientInformation().getClientId();
        Optional<String> name = input.getConnectPacket().getUserName();
        Optional<String> secret = input.getConnectPacket().getPassword().map(IdentityEnforcement::text);
        PrincipalRegistry registry = loaded.get().registry();
        Optional<Principal> principal = name.isPresent() && secret.isPresent()
                ? registry.authenticate(name.get(), secret.get())
                : Optional.empty();
        if (principal.isEmpty()) {
            credentialsRefused.inc();
            LOG.warn(
                    "Refused MQTT client {}: {}",
                    clientId,
                    name.isEmpty() ? "no user name (anonymous clients are refused)" : "unknown user or wrong secret");
            output.failAuthentication(
                    ConnackReasonCode.BAD_USER_NAME_OR_PASSWORD, "Unknown user name or wrong password");
            return;
        }
        Optional<Principal> owner = registry.owner(clientId);
        if (owner.isEmpty() || !owner.get().name().equals(principal.get().name())) {
            clientIdRefused.inc();
            LOG.warn(
                    "Refused MQTT client {} of {}: a client id must be the principal's name or start with it and '-'",
                    clientId,
                    principal.get().name());
            output.failAuthentication(
                    ConnackReasonCode.CLIENT_IDENTIFIER_NOT_VALID,
                    "The client id must be the user name, or start with the user name and '-'");
            return;
        }
        String connection = UUID.randomUUID().toString();
        ConnectionAttributeStore attributes = input.getConnectionInformation().getConnectionAttributeStore();
        attributes.putAsString(PRINCIPAL_ATTRIBUTE, principal.get().name());
        attributes.putAsString(CONNECTION_ATTRIBUTE, connection);
        sessions.put(
                clientId, new Session(principal.get().name(), principal.get().secret(), connection));
        output.authenticateSuccessfully();
    }

    private static String text(java.nio.ByteBuffer bytes) {
        return StandardCharsets.UTF_8.decode(bytes.asReadOnlyBuffer()).toString();
    }

    /** The principal a connection authenticated as, if it is still in the registry. */
    private Optional<Principal> principalOf(ConnectionAttributeStore attributes) {
        return attributes
                .getAsString(PRINCIPAL_ATTRIBUTE)
                .flatMap(name -> loaded.get().registry().principal(name));
    }

    /** Reads the registry again if its file changed, then disconnects the clients it no longer admits. */
    private void reload(Counter reloads, Counter reloadFailures) {
        try {
            Optional<Object> stamp = file.stamp();
            if (Objects.equals(stamp, loaded.get().stamp())) {
                return;
            }
            PrincipalRegistry registry = file.load();
            loaded.set(new Loaded(registry, stamp));
            reloads.inc();
            LOG.info("Reloaded {} MQTT principals from {}", registry.size(), file.path());
            sessions.forEach((clientId, session) -> {
                Optional<Principal> now = registry.principal(session.principal());
                if (now.isEmpty() || !now.get().secret().equals(session.secret())) {
                    String why = now.isEmpty() ? "revoked" : "given a new secret";
                    LOG.info(
                            "Disconnecting MQTT client {}: its principal {} was {}",
                            clientId,
                            session.principal(),
                            why);
                    sessions.remove(clientId, session);
                    Services.clientService()
                            .disconnectClient(
                                    clientId,
                                    true,
                                    DisconnectReasonCode.NOT_AUTHORIZED,
                                    "Principal " + session.principal() + " was " + why)
                            .whenComplete((disconnected, failure) -> {
                                if (failure != null) {
                                    LOG.error("Cannot disconnect MQTT client {}", clientId, failure);
                                }
                            });
                }
            });
        } catch (RuntimeException e) {
            reloadFailures.inc();
            LOG.error(
                    "Cannot reload the MQTT principals from {}; the {} loaded before stay in force",
                    file.path(),
                    loaded.get().registry().size(),
                    e);
        }
    }

    /** Decides publishes and subscriptions with {@link TopicAccess}. */
    private final class Authorizer implements PublishAuthorizer, SubscriptionAuthorizer {
        private final Counter publishesRefused;
        private final Counter subscriptionsRefused;
        private final PositionAccounting.Counters accepted;

        Authorizer(Counter publishesRefused, Counter subscriptionsRefused, PositionAccounting.Counters accepted) {
            this.publishesRefused = publishesRefused;
            this.subscriptionsRefused = subscriptionsRefused;
            this.accepted = accepted;
        }

        @Override
        public void authorizePublish(PublishAuthorizerInput input, PublishAuthorizerOutput output) {
            String topic = input.getPublishPacket().getTopic();
            Optional<Principal> principal =
                    principalOf(input.getConnectionInformation().getConnectionAttributeStore());
            if (principal.isPresent() && TopicAccess.mayPublish(principal.get(), topic)) {
                accepted.count(
                        input.getPublishPacket(),
                        input.getConnectionInformation()
                                .getListener()
                                .map(Listener::getName)
                                .orElse(PositionAccounting.UNKNOWN_LISTENER));
                output.authorizeSuccessfully();
                return;
            }
            publishesRefused.inc();
            if (worthLogging(publishesRefused)) {
                LOG.warn(
                        "Refused a publish of MQTT client {} ({}) to {}: outside its grant",
                        input.getClientInformation().getClientId(),
                        principal.map(Principal::name).orElse("revoked"),
                        topic);
            }
            output.failAuthorization(AckReasonCode.NOT_AUTHORIZED, "Not authorized to publish to " + topic);
        }

        @Override
        public void authorizeSubscribe(SubscriptionAuthorizerInput input, SubscriptionAuthorizerOutput output) {
            String filter = input.getSubscription().getTopicFilter();
            Optional<Principal> principal =
                    principalOf(input.getConnectionInformation().getConnectionAttributeStore());
            if (principal.isPresent() && TopicAccess.maySubscribe(principal.get(), filter)) {
                output.authorizeSuccessfully();
                return;
            }
            subscriptionsRefused.inc();
            if (worthLogging(subscriptionsRefused)) {
                LOG.warn(
                        "Refused a subscription of MQTT client {} ({}) to {}: outside its grant",
                        input.getClientInformation().getClientId(),
                        principal.map(Principal::name).orElse("revoked"),
                        filter);
            }
            output.failAuthorization(SubackReasonCode.NOT_AUTHORIZED, "Not authorized to subscribe to " + filter);
        }
    }

    private static boolean worthLogging(Counter refusals) {
        long count = refusals.getCount();
        return count <= 100 || count % 1_000 == 0;
    }

    /** Forgets a connection's session when it ends, unless a later connection with the same client id took over. */
    private final class Forgetting implements ClientLifecycleEventListener {
        @Override
        public void onMqttConnectionStart(ConnectionStartInput input) {}

        @Override
        public void onAuthenticationSuccessful(AuthenticationSuccessfulInput input) {}

        @Override
        public void onDisconnect(DisconnectEventInput input) {
            String clientId = input.getClientInformation().getClientId();
            input.getConnectionInformation()
                    .getConnectionAttributeStore()
                    .getAsString(CONNECTION_ATTRIBUTE)
                    .ifPresent(connection -> sessions.computeIfPresent(
                            clientId, (id, session) -> session.connection().equals(connection) ? null : session));
        }
    }
}
