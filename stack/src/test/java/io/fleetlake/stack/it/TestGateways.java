package io.fleetlake.stack.it;

import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.VehicleGrant;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackMqttIdentity;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * MQTT credentials for the end-to-end tests, which publish through the running stack's broker as every client must:
 * each test client is a gateway principal of its own in the stack's registry, relaying every vehicle whose id starts
 * with a capital letter or a digit (the tests' vehicles: {@code E2E-00}, {@code AUD-01}, ...), as a telematics server
 * for the whole fleet would; its client ids start with its name.
 */
final class TestGateways {
    /** Prefixes that cover every vehicle id of the tests. */
    private static final List<String> EVERY_TEST_VEHICLE = Stream.concat(
                    IntStream.rangeClosed('A', 'Z').mapToObj(letter -> String.valueOf((char) letter)),
                    IntStream.rangeClosed('0', '9').mapToObj(digit -> String.valueOf((char) digit)))
            .toList();

    private TestGateways() {}

    /** A user name and its secret. */
    record Credentials(String username, String password) {
        @Override
        public String toString() {
            return "Credentials{username=" + username + ", password=***}";
        }
    }

    /**
     * The gateway {@code name}, created (or given a new secret when an earlier test created it), once the broker has
     * reloaded the registry and admits it.
     */
    static Credentials gateway(StackSettings settings, String name) {
        PrincipalAdministration administration = StackMqttIdentity.of(settings).administration();
        String secret = administration
                .grant(name, VehicleGrant.ofPrefixes(EVERY_TEST_VEHICLE), GrantMode.ADD)
                .orElseGet(() -> administration.rotate(name))
                .secret();
        Credentials credentials = new Credentials(name, secret);
        awaitAdmitted(settings, name + "-probe", credentials);
        return credentials;
    }

    /** The ingest connector's credentials, as the stack created them in its data folder. */
    static Credentials ingest(StackSettings settings) {
        return new Credentials(
                StackMqttIdentity.INGEST,
                StackMqttIdentity.of(settings).secret(StackMqttIdentity.INGEST).orElseThrow());
    }

    /** An MQTT 5 client of the stack's broker logged in with {@code credentials}. */
    static Mqtt5BlockingClient client(StackSettings settings, String clientId, Credentials credentials) {
        URI mqtt = URI.create(settings.mqttUri());
        return Mqtt5Client.builder()
                .identifier(clientId)
                .serverHost(mqtt.getHost())
                .serverPort(mqtt.getPort())
                .simpleAuth()
                .username(credentials.username())
                .password(credentials.password().getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .buildBlocking();
    }

    /** The broker reads a changed registry within a second; until then it refuses a new principal. */
    private static void awaitAdmitted(StackSettings settings, String clientId, Credentials credentials) {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            Mqtt5BlockingClient probe = client(settings, clientId, credentials);
            probe.connectWith().cleanStart(true).sessionExpiryInterval(0).send();
            probe.disconnect();
            return true;
        });
    }
}
