package io.fleetlake.servers.mqtt;

import static io.fleetlake.servers.mqtt.MqttReasonCodes.connectRefusal;
import static io.fleetlake.servers.mqtt.MqttReasonCodes.pubAck;
import static io.fleetlake.servers.mqtt.MqttReasonCodes.subAck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.mqtt.MosquittoFiles;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.VehicleGrant;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same principals and grants on the compose deployment's broker: the registry rendered into Mosquitto's {@code
 * password_file} and {@code acl_file} ({@link MosquittoFiles}) and enforced by the real Mosquitto 2.0 (Debian's
 * package, which {@code ./fleet test} installs; the test fails, and says so, without it). Mosquitto keeps the
 * connection after a refused publish, unlike HiveMQ CE.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosquittoIdentityIT {
    private static final Path MOSQUITTO = Path.of("/usr/sbin/mosquitto");

    private Path folder;
    private PrincipalAdministration administration;
    private final Map<String, String> secrets = new HashMap<>();
    private int port;
    private int tlsPort;
    private Process mosquitto;

    @BeforeAll
    void startMosquitto(@TempDir Path folder) throws Exception {
        assertThat(Files.isExecutable(MOSQUITTO))
                .as(
                        "%s is missing: install Debian's mosquitto package (apt-get install mosquitto; ./fleet test does)",
                        MOSQUITTO)
                .isTrue();
        this.folder = folder;
        administration = new PrincipalAdministration(new RegistryFile(folder.resolve("identity/principals.json")));
        for (String device : List.of("VH-A", "VH-B", "DEP1-0002")) {
            secrets.put(device, administration.addDevice(device).secret());
        }
        secrets.put(
                "depot-1",
                administration
                        .grant("depot-1", VehicleGrant.ofPrefixes(List.of("DEP1-")), GrantMode.ADD)
                        .orElseThrow()
                        .secret());
        secrets.put(
                "depot-2",
                administration
                        .grant("depot-2", VehicleGrant.ofVehicles(List.of("TRK-7")), GrantMode.ADD)
                        .orElseThrow()
                        .secret());
        secrets.put("fleet-ingest", administration.addIngest("fleet-ingest").secret());
        render();

        LocalCertificateAuthority.TlsFiles tls =
                LocalCertificateAuthority.ensure(folder.resolve("tls"), List.of("127.0.0.1"), Clock.systemUTC());
        port = MqttBrokerIT.freePort();
        tlsPort = MqttBrokerIT.freePort();
        Path configuration = folder.resolve("mosquitto.conf");
        Files.writeString(
                configuration,
                """
                user %s
                per_listener_settings false
                allow_anonymous false
                password_file %s
                acl_file %s
                persistence false
                log_dest stdout
                listener %d 127.0.0.1
                listener %d 127.0.0.1
                certfile %s
                keyfile %s
                """
                        .formatted(
                                // Started as root, Mosquitto drops to this user, who owns the owner-only files.
                                System.getProperty("user.name"),
                                folder.resolve("mosquitto").resolve(MosquittoFiles.PASSWORD_FILE),
                                folder.resolve("mosquitto").resolve(MosquittoFiles.ACL_FILE),
                                port,
                                tlsPort,
                                tls.certificateChain(),
                                tls.privateKey()));
        mosquitto = new ProcessBuilder(MOSQUITTO.toString(), "-c", configuration.toString())
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("mosquitto.log").toFile())
                .start();
        Path log = folder.resolve("mosquitto.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            assertThat(mosquitto.isAlive())
                    .as("Mosquitto exited: %s", Files.exists(log) ? Files.readString(log) : "no log")
                    .isTrue();
            return accepts(port) && accepts(tlsPort);
        });
    }

    @AfterAll
    void stopMosquitto() throws InterruptedException {
        if (mosquitto != null) {
            mosquitto.destroy();
            if (!mosquitto.waitFor(10, TimeUnit.SECONDS)) {
                mosquitto.destroyForcibly();
            }
        }
    }

    @Test
    void anonymousAndWrongSecretsAreRefused() {
        assertThat(connectRefusal(Mqtt5Client.builder()
                        .identifier("anonymous")
                        .serverHost("127.0.0.1")
                        .serverPort(port)
                        .buildBlocking()))
                .isIn(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED, Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
        assertThat(connectRefusal(client("VH-A", "VH-A", secrets.get("VH-B"), port)))
                .isIn(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED, Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD);
    }

    @Test
    void devicesGatewaysAndIngestHaveTheirGrantsOnly() throws Exception {
        Mqtt5BlockingClient ingest = client("fleet-ingest-0", "fleet-ingest", port);
        ingest.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = ingest.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(subAck(ingest, "fleet/+/position")).isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);

            // Mosquitto 2.0 grants a subscription to '#' and applies the read grant to each message it would
            // deliver: the eavesdropping device gets nothing of another vehicle's.
            Mqtt5BlockingClient eavesdropper = client("VH-B", "VH-B", port);
            eavesdropper.connect();
            Mqtt5BlockingClient.Mqtt5Publishes overheard = eavesdropper.publishes(MqttGlobalPublishFilter.ALL);
            subAck(eavesdropper, "#");
            assertThat(subAck(eavesdropper, "fleet/VH-B/commands/#")).isEqualTo(Mqtt5SubAckReasonCode.GRANTED_QOS_1);

            Mqtt5BlockingClient device = client("VH-A", "VH-A", port);
            device.connect();
            assertThat(pubAck(device, "fleet/VH-A/position")).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
            assertThat(pubAck(device, "fleet/VH-B/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            device.disconnect();

            Mqtt5BlockingClient gateway = client("depot-1", "depot-1", port);
            gateway.connect();
            assertThat(pubAck(gateway, "fleet/DEP1-0002/position"))
                    .as("a prefix grant, expanded over the registered vehicles")
                    .isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
            assertThat(pubAck(gateway, "fleet/VH-A/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            assertThat(pubAck(gateway, "fleet/depot-1/position"))
                    .as("the device pattern does not make a gateway's own name a vehicle")
                    .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            assertThat(pubAck(gateway, "fleet/DEP1-0099/position"))
                    .as("a vehicle of the prefix that was not registered when the files were rendered (documented)")
                    .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            gateway.disconnect();

            Mqtt5BlockingClient listed = client("depot-2", "depot-2", port);
            listed.connect();
            assertThat(pubAck(listed, "fleet/TRK-7/position")).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
            assertThat(pubAck(listed, "fleet/TRK-8/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            listed.disconnect();

            assertThat(pubAck(ingest, "fleet/VH-A/position")).isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED);
            assertThat(received(publishes, 3))
                    .containsExactlyInAnyOrder(
                            "fleet/VH-A/position", "fleet/DEP1-0002/position", "fleet/TRK-7/position");
        }
        ingest.disconnect();
    }

    @Test
    void revokedDeviceIsRefusedAfterRenderingAndSighup() throws Exception {
        secrets.put("VH-GONE", administration.addDevice("VH-GONE").secret());
        render();
        reload();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            Mqtt5BlockingClient probe = client("VH-GONE", "VH-GONE", port);
            probe.connect();
            probe.disconnect();
            return true;
        });

        administration.revoke("VH-GONE");
        render();
        reload();

        await().atMost(Duration.ofSeconds(10)).until(() -> refused(client("VH-GONE", "VH-GONE", port)));
    }

    @Test
    void tlsListenerServesTheLocalCasCertificate() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(
                "ca",
                LocalCertificateAuthority.readCertificates(folder.resolve("tls").resolve("ca.pem"))
                        .get(0));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);

        Mqtt5BlockingClient device = builder("VH-B", "VH-B", secrets.get("VH-B"), tlsPort)
                .sslConfig()
                .trustManagerFactory(trustManagers)
                .applySslConfig()
                .buildBlocking();
        device.connect();
        assertThat(pubAck(device, "fleet/VH-B/position"))
                .isIn(Mqtt5PubAckReasonCode.SUCCESS, Mqtt5PubAckReasonCode.NO_MATCHING_SUBSCRIBERS);
        device.disconnect();
    }

    private void render() throws IOException {
        MosquittoFiles.render(administration.registry()).writeTo(folder.resolve("mosquitto"));
    }

    /** {@code docker compose kill -s HUP mosquitto}: Mosquitto reads its password and ACL files again. */
    private void reload() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(mosquitto.pid())).start();
        assertThat(kill.waitFor()).isZero();
    }

    private static boolean refused(Mqtt5BlockingClient client) {
        try {
            connectRefusal(client);
            return true;
        } catch (AssertionError accepted) {
            return false;
        }
    }

    private static List<String> received(Mqtt5BlockingClient.Mqtt5Publishes publishes, int count)
            throws InterruptedException {
        List<String> topics = new java.util.ArrayList<>();
        Optional<Mqtt5Publish> publish;
        while (topics.size() < count && (publish = publishes.receive(10, TimeUnit.SECONDS)).isPresent()) {
            topics.add(publish.get().getTopic().toString());
        }
        return topics;
    }

    private Mqtt5BlockingClient client(String clientId, String principal, int listenerPort) {
        return client(clientId, principal, secrets.get(principal), listenerPort);
    }

    private static Mqtt5BlockingClient client(String clientId, String principal, String secret, int listenerPort) {
        return builder(clientId, principal, secret, listenerPort).buildBlocking();
    }

    private static Mqtt5ClientBuilder builder(String clientId, String principal, String secret, int listenerPort) {
        return Mqtt5Client.builder()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(listenerPort)
                .simpleAuth()
                .username(principal)
                .password(secret.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth();
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
