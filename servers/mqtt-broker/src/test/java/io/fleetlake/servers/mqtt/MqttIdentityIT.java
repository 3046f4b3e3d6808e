package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.LocalCertificateAuthority;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's MQTT identities on the real broker (HiveMQ CE with {@link IdentityEnforcement}, as the stack runs it):
 * who may connect, what each principal may publish and subscribe to, refusals counted in the broker's metrics, and
 * revocation and rotation while the broker keeps running. One broker for the class; each test uses names of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MqttIdentityIT {
    private static final Logger LOG = LoggerFactory.getLogger(MqttIdentityIT.class);
    private static final Duration WITHIN_SECONDS = Duration.ofSeconds(10);

    private MqttBrokerConfig config;
    private TestPrincipals principals;
    private MqttBroker broker;

    @BeforeAll
    void startBroker(@TempDir Path dataDirectory) throws Exception {
        config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                MqttBrokerConfig.PORT, Integer.toString(MqttBrokerIT.freePort()),
                MqttBrokerConfig.TLS_PORT, Integer.toString(MqttBrokerIT.freePort()),
                MqttBrokerConfig.DATA_DIRECTORY, dataDirectory.toString())));
        principals = new TestPrincipals(config)
                .device("VH-A")
                .device("VH-B")
                .gateway("depot-1", "DEP1-")
                .gatewayFor("depot-2", List.of("TRK-7"))
                .ingest("fleet-ingest");
        broker = new MqttBroker(config);
        broker.start();
    }

    @AfterAll
    void stopBroker() {
        broker.close();
    }

    @Test
    void anonymousClientsWrongSecretsAndForeignClientIdsAreRefusedAndCounted() throws Exception {
        long refusedBefore = count(IdentityEnforcement.CONNECTS_REFUSED_PREFIX + IdentityEnforcement.CREDENTIALS);
        long clientIdBefore = count(IdentityEnforcement.CONNECTS_REFUSED_PREFIX + IdentityEnforcement.CLIENT_ID);

        Mqtt5BlockingClient anonymous = Mqtt5Client.builder()
                .identifier("VH-A")
                .serverHost(config.host())
                .serverPort(config.port())
                .buildBlocking();
        assertThat(MqttReasonCodes.connectRefusal(anonymous))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        Mqtt5BlockingClient wrongSecret = Mqtt5Client.builder()
                .identifier("VH-A")
                .serverHost(config.host())
                .serverPort(config.port())
                .simpleAuth()
                .username("VH-A")
                .password(principals.secret("VH-B").getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .buildBlocking();
        assertThat(MqttReasonCodes.connectRefusal(wrongSecret))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        // A device must not take over (or clear) the ingest connector's session with its client id.
        Mqtt5BlockingClient takeover =
                principals.builder("fleet-ingest-0", "VH-A").buildBlocking();
        assertThat(MqttReasonCodes.connectRefusal(takeover))
                .isEqualTo(Mqtt5ConnAckReasonCode.CLIENT_IDENTIFIER_NOT_VALID);

        assertThat(count(IdentityEnforcement.CONNECTS_REFUSED_PREFIX + IdentityEnforcement.CREDENTIALS))
                .isEqualTo(refusedBefore + 2);
        assertThat(count(IdentityEnforcement.CONNECTS_REFUSED_PREFIX + IdentityEnforcement.CLIENT_ID))
                .isEqualTo(clientIdBefore + 1);
    }

    /**
     * HiveMQ CE answers a refused publish with PUBACK 0x87 and then disconnects the client (DISCONNECT 0x87, hard-wired
     * in its IncomingPublishService); so each refused publish is made on a connection of its own here.
     */
    @Test
    void deviceCannotPublishAsAnotherNorSubscribeToEverything() throws Exception {
        long refusedBefore = count(IdentityEnforcement.PUBLISHES_REFUSED);
        long acceptedBefore = acceptedPositions();
        Mqtt5BlockingClient device = principals.client("VH-A");
        device.connect();
        assertThat(MqttReasonCodes.pubAck(device, "fleet/VH-A/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        assertThat(MqttReasonCodes.subAck(device, "#")).isEqualTo(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
        assertThat(MqttReasonCodes.subAck(device, "fleet/+/position")).isEqualTo(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
        assertThat(MqttReasonCodes.subAck(device, "fleet/VH-A/commands/#"))
                .isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
        assertThat(device.getState().isConnected())
                .as("a refused subscription keeps the connection")
                .isTrue();
        device.disconnect();

        assertThat(refusedPublish("VH-A", "fleet/VH-B/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
        assertThat(refusedPublish("VH-A", "fleet/VH-A/status")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);

        assertThat(count(IdentityEnforcement.PUBLISHES_REFUSED)).isEqualTo(refusedBefore + 2);
        assertThat(acceptedPositions())
                .as("a refused position is not counted as accepted (fleet verify reconciles that counter)")
                .isEqualTo(acceptedBefore + 1);
    }

    @Test
    void gatewayPublishesInsideItsGrantOnlyAndLegacyClientsAreDisconnectedOutsideIt() throws Exception {
        long refusedBefore = count(IdentityEnforcement.PUBLISHES_REFUSED);
        Mqtt5BlockingClient gateway = principals.client("depot-1");
        gateway.connect();
        assertThat(MqttReasonCodes.pubAck(gateway, "fleet/DEP1-0001/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        assertThat(MqttReasonCodes.pubAck(gateway, "fleet/DEP1-0002/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        gateway.disconnect();
        assertThat(refusedPublish("depot-1", "fleet/VH-A/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
        assertThat(refusedPublish("depot-1", "fleet/DEP2-0001/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);

        Mqtt3BlockingClient legacy = principals.legacyClient("depot-2");
        legacy.connect();
        legacy.publishWith()
                .topic("fleet/TRK-7/position")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload("inside".getBytes(StandardCharsets.UTF_8))
                .send();
        assertThatThrownBy(() -> legacy.publishWith()
                        .topic("fleet/TRK-8/position")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("outside".getBytes(StandardCharsets.UTF_8))
                        .send())
                .as("MQTT 3.1.1 has no negative PUBACK: the broker disconnects the client");
        await().atMost(WITHIN_SECONDS).until(() -> !legacy.getState().isConnected());

        assertThat(count(IdentityEnforcement.PUBLISHES_REFUSED)).isEqualTo(refusedBefore + 3);
    }

    @Test
    void ingestSubscribesToPositionsOnlyAndPublishesNothing() throws Exception {
        long refusedBefore = count(IdentityEnforcement.SUBSCRIPTIONS_REFUSED);
        Mqtt5BlockingClient ingest =
                principals.builder("fleet-ingest-9", "fleet-ingest").buildBlocking();
        ingest.connect();

        assertThat(MqttReasonCodes.subAck(ingest, "fleet/+/position")).isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
        assertThat(MqttReasonCodes.subAck(ingest, "$share/fleet-ingest/fleet/+/position"))
                .isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
        assertThat(MqttReasonCodes.subAck(ingest, "#")).isEqualTo(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
        assertThat(MqttReasonCodes.subAck(ingest, "fleet/#")).isEqualTo(Mqtt5SubAckReasonCode.NOT_AUTHORIZED);
        ingest.disconnect();
        assertThat(refusedPublish("fleet-ingest", "fleet/VH-A/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);

        assertThat(count(IdentityEnforcement.SUBSCRIPTIONS_REFUSED)).isEqualTo(refusedBefore + 2);
    }

    @Test
    void revokedDeviceIsDisconnectedAndRefusedWithinSecondsWhileTheBrokerRuns() {
        principals.device("VH-REVOKED");
        awaitReloaded("VH-REVOKED");
        Mqtt5BlockingClient device = principals.client("VH-REVOKED");
        device.connect();
        assertThat(MqttReasonCodes.pubAck(device, "fleet/VH-REVOKED/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);

        long revokedAt = System.nanoTime();
        principals.administration().revoke("VH-REVOKED");
        await().atMost(WITHIN_SECONDS).until(() -> !device.getState().isConnected());
        long disconnectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt);
        LOG.info("A revoked device was disconnected {} ms after the registry changed", disconnectedMillis);

        assertThat(MqttReasonCodes.connectRefusal(principals.client("VH-REVOKED")))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        assertThat(disconnectedMillis).isLessThan(WITHIN_SECONDS.toMillis());
    }

    @Test
    void rotatedSecretWorksAndTheOldOneStops() {
        principals.device("VH-ROTATED");
        awaitReloaded("VH-ROTATED");
        String oldSecret = principals.secret("VH-ROTATED");
        Mqtt5BlockingClient withOldSecret = principals.client("VH-ROTATED");
        withOldSecret.connect();

        principals.rotated(
                "VH-ROTATED", principals.administration().rotate("VH-ROTATED").secret());
        await().atMost(WITHIN_SECONDS).until(() -> !withOldSecret.getState().isConnected());

        Mqtt5BlockingClient withNewSecret = principals.client("VH-ROTATED");
        withNewSecret.connect();
        assertThat(MqttReasonCodes.pubAck(withNewSecret, "fleet/VH-ROTATED/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        withNewSecret.disconnect();
        Mqtt5BlockingClient oldAgain = Mqtt5Client.builder()
                .identifier("VH-ROTATED")
                .serverHost(config.host())
                .serverPort(config.port())
                .simpleAuth()
                .username("VH-ROTATED")
                .password(oldSecret.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .buildBlocking();
        assertThat(MqttReasonCodes.connectRefusal(oldAgain))
                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
    }

    @Test
    void tlsListenerServesACertificateOfTheDataFoldersCaAndIsRefusedWithoutIt() throws Exception {
        MqttBrokerConfig.Tls tls = config.tls().orElseThrow();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(
                "fleet-ca",
                LocalCertificateAuthority.readCertificates(tls.caCertificate()).get(0));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);

        Mqtt5BlockingClient trusting = principals
                .builder("VH-B", "VH-B")
                .serverPort(tls.port())
                .sslConfig()
                .trustManagerFactory(trustManagers)
                .applySslConfig()
                .buildBlocking();
        trusting.connect();
        assertThat(MqttReasonCodes.pubAck(trusting, "fleet/VH-B/position"))
                .isEqualTo(Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        trusting.disconnect();

        Mqtt5BlockingClient withoutTheCa = principals
                .builder("VH-B", "VH-B")
                .serverPort(tls.port())
                .sslWithDefaultConfig()
                .buildBlocking();
        assertThatThrownBy(withoutTheCa::connect)
                .as("the JDK's trust store does not know the data folder's CA")
                .hasStackTraceContaining("PKIX path building failed");
    }

    /** Waits until the broker admits {@code name}, i.e. has read the registry it was added to. */
    private void awaitReloaded(String name) {
        await().atMost(WITHIN_SECONDS).ignoreExceptions().until(() -> {
            Mqtt5BlockingClient probe = principals.client(name);
            probe.connect();
            probe.disconnect();
            return true;
        });
    }

    /**
     * Publishes once on a new connection of {@code principal}, which the broker must refuse and then disconnect.
     *
     * @return the PUBACK's reason code
     */
    private Mqtt5PubAckReasonCode refusedPublish(String principal, String topic) {
        Mqtt5BlockingClient client =
                principals.builder(principal + "-refused", principal).buildBlocking();
        client.connect();
        Mqtt5PubAckReasonCode reasonCode = MqttReasonCodes.pubAck(client, topic);
        await().atMost(WITHIN_SECONDS).until(() -> !client.getState().isConnected());
        return reasonCode;
    }

    private static long count(String counter) throws JMException {
        return ((Number) ManagementFactory.getPlatformMBeanServer()
                        .getAttribute(new ObjectName("metrics:name=" + counter), "Count"))
                .longValue();
    }

    private static long acceptedPositions() throws JMException {
        long accepted = 0;
        for (ObjectName name : ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("metrics:name=" + PositionAccounting.ACCEPTED_PREFIX + "*"), null)) {
            accepted += ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Count")).longValue();
        }
        return accepted;
    }
}
