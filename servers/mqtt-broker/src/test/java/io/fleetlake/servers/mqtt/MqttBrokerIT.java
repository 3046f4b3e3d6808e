package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MqttBrokerIT {
    private static final int MESSAGES = 500;
    private static final String SUBSCRIBER = "fleet-ingest";
    private static final long SESSION_EXPIRY_SECONDS = 3600;

    @TempDir
    Path dataDirectory;

    @Test
    void persistentSessionReceivesEveryMessagePublishedWhileOfflineAcrossABrokerRestart() throws Exception {
        MqttBrokerConfig config = new MqttBrokerConfig(
                "127.0.0.1",
                freePort(),
                dataDirectory,
                MqttBrokerConfig.DEFAULT_MAX_QUEUED_MESSAGES,
                MqttBrokerConfig.DEFAULT_MAX_SESSION_EXPIRY);

        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();

            Mqtt5BlockingClient subscriber = client(config, SUBSCRIBER);
            assertThat(connectPersistent(subscriber).isSessionPresent()).isFalse();
            subscriber
                    .subscribeWith()
                    .topicFilter("fleet/+/position")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            subscriber.disconnect();

            Mqtt5BlockingClient publisher = client(config, "device-simulator");
            publisher.connect();
            for (int sequence = 0; sequence < MESSAGES; sequence++) {
                publisher
                        .publishWith()
                        .topic("fleet/vehicle-" + (sequence % 10) + "/position")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(Integer.toString(sequence).getBytes(StandardCharsets.UTF_8))
                        .send();
            }
            publisher.disconnect();
        }

        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();

            Mqtt5BlockingClient subscriber = client(config, SUBSCRIBER);
            Set<String> received = new HashSet<>();
            try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                assertThat(connectPersistent(subscriber).isSessionPresent()).isTrue();
                Optional<Mqtt5Publish> publish;
                while (received.size() < MESSAGES && (publish = publishes.receive(10, TimeUnit.SECONDS)).isPresent()) {
                    received.add(new String(publish.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
                }
            }
            subscriber.disconnect();

            assertThat(received)
                    .isEqualTo(IntStream.range(0, MESSAGES)
                            .mapToObj(Integer::toString)
                            .collect(Collectors.toSet()));
        }
    }

    private static Mqtt5BlockingClient client(MqttBrokerConfig config, String identifier) {
        return Mqtt5Client.builder()
                .identifier(identifier)
                .serverHost(config.host())
                .serverPort(config.port())
                .buildBlocking();
    }

    private static Mqtt5ConnAck connectPersistent(Mqtt5BlockingClient client) {
        return client.connectWith()
                .cleanStart(false)
                .sessionExpiryInterval(SESSION_EXPIRY_SECONDS)
                .send();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
