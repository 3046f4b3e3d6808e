package io.fleetlake.servers.mqtt;

import com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3Client;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.VehicleGrant;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The principals of a test broker, written to its {@code mqtt.identity-file}, and clients that log in as them. */
final class TestPrincipals {
    private final MqttBrokerConfig config;
    private final PrincipalAdministration administration;
    private final Map<String, String> secrets = new ConcurrentHashMap<>();

    TestPrincipals(MqttBrokerConfig config) {
        this.config = config;
        this.administration = new PrincipalAdministration(new RegistryFile(config.identityFile()));
    }

    PrincipalAdministration administration() {
        return administration;
    }

    /** A gateway for every vehicle whose id starts with one of {@code prefixes}. */
    TestPrincipals gateway(String name, String... prefixes) {
        administration
                .grant(name, VehicleGrant.ofPrefixes(List.of(prefixes)), GrantMode.ADD)
                .ifPresent(issued -> secrets.put(name, issued.secret()));
        return this;
    }

    TestPrincipals gatewayFor(String name, List<String> vehicles) {
        administration
                .grant(name, VehicleGrant.ofVehicles(vehicles), GrantMode.ADD)
                .ifPresent(issued -> secrets.put(name, issued.secret()));
        return this;
    }

    TestPrincipals device(String vehicle) {
        secrets.put(vehicle, administration.addDevice(vehicle).secret());
        return this;
    }

    TestPrincipals ingest(String name) {
        secrets.put(name, administration.addIngest(name).secret());
        return this;
    }

    String secret(String name) {
        String secret = secrets.get(name);
        if (secret == null) {
            throw new IllegalArgumentException("No test principal " + name);
        }
        return secret;
    }

    void rotated(String name, String secret) {
        secrets.put(name, secret);
    }

    /** An MQTT 5 client on the plaintext listener, logged in as {@code principal}. */
    Mqtt5ClientBuilder builder(String clientId, String principal) {
        return Mqtt5Client.builder()
                .identifier(clientId)
                .serverHost(config.host())
                .serverPort(config.port())
                .simpleAuth()
                .username(principal)
                .password(secret(principal).getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth();
    }

    /** An MQTT 5 client whose client id is its principal's name. */
    Mqtt5BlockingClient client(String principal) {
        return builder(principal, principal).buildBlocking();
    }

    Mqtt3BlockingClient legacyClient(String principal) {
        return Mqtt3Client.builder()
                .identifier(principal)
                .serverHost(config.host())
                .serverPort(config.port())
                .simpleAuth()
                .username(principal)
                .password(secret(principal).getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .buildBlocking();
    }
}
