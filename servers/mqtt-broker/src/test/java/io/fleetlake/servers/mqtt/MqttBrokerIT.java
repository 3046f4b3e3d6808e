package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.process.FreePorts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class MqttBrokerIT {
    private static final Logger LOG = LoggerFactory.getLogger(MqttBrokerIT.class);
    private static final int MESSAGES = 500;
    /** A gateway's queue after a broker restart of some seconds: fifty times the Receive Maximum this broker had (100). */
    private static final int BURST = 5_000;

    private static final String SUBSCRIBER = "fleet-ingest";
    private static final long SESSION_EXPIRY_SECONDS = 3600;

    @TempDir
    Path dataDirectory;

    /**
     * Also the broker's accounting of positions ({@link PositionAccounting}, {@link PositionQueue}) as its JMX metrics
     * serve it: positions are counted and other topics are not; the queue of the offline subscriber is
     * the number of undelivered positions, also after the restart (the counter starts again from zero), and empty once
     * the subscriber acknowledged them.
     */
    @Test
    void persistentSessionReceivesEveryMessagePublishedWhileOfflineAcrossABrokerRestart() throws Exception {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                MqttBrokerConfig.PORT, Integer.toString(freePort()),
                MqttBrokerConfig.DATA_DIRECTORY, dataDirectory.toString())));
        TestPrincipals principals =
                new TestPrincipals(config).ingest(SUBSCRIBER).gateway("device-simulator", "vehicle-");

        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();

            assertThat(subscribePersistentlyAndLeave(principals).isSessionPresent())
                    .isFalse();

            Mqtt5BlockingClient publisher = principals.client("device-simulator");
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

            assertThat(acceptedPositions()).isEqualTo(MESSAGES);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(queuedPositions()).isEqualTo(MESSAGES));
        }

        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();
            assertThat(acceptedPositions())
                    .as("a restarted broker counts from zero")
                    .isZero();
            assertThat(queuedPositions()).as("the persisted queue").isEqualTo(MESSAGES);

            Mqtt5BlockingClient subscriber = principals.client(SUBSCRIBER);
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
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(queuedPositions()).isZero());
        }
    }

    /** The broker's accepted positions over its listeners, as HiveMQ's JMX reporter serves them; 0 when none yet. */
    private static long acceptedPositions() throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long accepted = 0;
        for (ObjectName name :
                server.queryNames(new ObjectName("metrics:name=" + PositionAccounting.ACCEPTED_PREFIX + "*"), null)) {
            accepted += ((Number) server.getAttribute(name, "Count")).longValue();
        }
        return accepted;
    }

    private static long queuedPositions() throws JMException {
        return ((Number) ManagementFactory.getPlatformMBeanServer()
                        .getAttribute(new ObjectName("metrics:name=" + PositionQueue.NAME), "Value"))
                .longValue();
    }

    /**
     * Devices flood on reconnect: a device with a persistent session that queued thousands of QoS 1 positions while
     * the broker restarted writes them all at once when it is back, ignoring the Receive Maximum from the CONNACK
     * (paho-mqtt 2.x does). The broker must neither disconnect it (with HiveMQ's 10, or the 100 this broker had, it
     * did, again at every retry) nor lose or duplicate a message: every PUBLISH is acknowledged with success and a
     * subscriber receives each exactly once.
     */
    @Test
    void deviceThatResendsItsWholeQueueAfterABrokerRestartIsAcceptedAndEveryMessageArrivesOnce() throws Exception {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                MqttBrokerConfig.PORT, Integer.toString(freePort()),
                MqttBrokerConfig.DATA_DIRECTORY, dataDirectory.toString())));
        String device = "flooding-device";
        TestPrincipals principals =
                new TestPrincipals(config).ingest(SUBSCRIBER).gateway(device, "vehicle-");
        Duration timeout = Duration.ofSeconds(30);
        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();
            subscribePersistentlyAndLeave(principals);
            try (FloodingMqttClient firstConnection = FloodingMqttClient.connect(
                    config.host(),
                    config.port(),
                    device,
                    device,
                    principals.secret(device),
                    Duration.ofSeconds(SESSION_EXPIRY_SECONDS),
                    timeout)) {
                assertThat(firstConnection.connectionAcknowledgement().sessionPresent())
                        .isFalse();
            }
        }

        // What the device queued while the broker was away: one topic per vehicle, as a gateway for many vehicles.
        List<FloodingMqttClient.Message> queued = IntStream.range(0, BURST)
                .mapToObj(sequence -> new FloodingMqttClient.Message(
                        "fleet/vehicle-" + (sequence % 50) + "/position",
                        Integer.toString(sequence).getBytes(StandardCharsets.UTF_8)))
                .toList();
        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();
            Mqtt5BlockingClient subscriber = principals.client(SUBSCRIBER);
            List<String> received = new ArrayList<>();
            try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                assertThat(connectPersistent(subscriber).isSessionPresent()).isTrue();

                FloodingMqttClient.Outcome outcome;
                long floodStart = System.nanoTime();
                try (FloodingMqttClient reconnected = FloodingMqttClient.connect(
                        config.host(),
                        config.port(),
                        device,
                        device,
                        principals.secret(device),
                        Duration.ofSeconds(SESSION_EXPIRY_SECONDS),
                        timeout)) {
                    FloodingMqttClient.ConnectionAcknowledgement acknowledgement =
                            reconnected.connectionAcknowledgement();
                    assertThat(acknowledgement.sessionPresent()).isTrue();
                    assertThat(acknowledgement.receiveMaximum())
                            .isEqualTo(MqttBrokerConfig.DEFAULT_SERVER_RECEIVE_MAXIMUM);
                    outcome = reconnected.flood(queued, Duration.ofMinutes(2));
                }
                LOG.info(
                        "Reconnect burst of {} QoS 1 publishes: {} in {} ms",
                        BURST,
                        outcome,
                        Duration.ofNanos(System.nanoTime() - floodStart).toMillis());
                assertThat(outcome.disconnectReason())
                        .as("the broker did not disconnect the device: %s", outcome)
                        .isEmpty();
                assertThat(outcome.acknowledgements())
                        .as("every publish acknowledged: %s", outcome)
                        .hasSize(BURST);
                assertThat(outcome.refused())
                        .as("PUBACKs with an error reason code")
                        .isEmpty();

                Optional<Mqtt5Publish> publish;
                while (received.size() < BURST && (publish = publishes.receive(30, TimeUnit.SECONDS)).isPresent()) {
                    received.add(new String(publish.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
                }
                assertThat(publishes.receive(2, TimeUnit.SECONDS))
                        .as("no message delivered twice")
                        .isEmpty();
            }
            subscriber.disconnect();

            assertThat(received)
                    .as("every queued message exactly once")
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, BURST)
                            .mapToObj(Integer::toString)
                            .toList());
        }
    }

    /**
     * Size limit at the first hop: an MQTT 5 client learns the maximum packet size and the receive maximum from the
     * CONNACK and refuses to send a larger publish itself; an MQTT 3.1.1 client, which is not told, is disconnected
     * when it sends one. No subscriber ever receives the oversized message, and both clients go on.
     */
    @Test
    void publishAboveTheMaximumPacketSizeIsRefusedAndNothingElseIsAffected() throws Exception {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                MqttBrokerConfig.PORT, Integer.toString(freePort()),
                MqttBrokerConfig.DATA_DIRECTORY, dataDirectory.toString())));

        TestPrincipals principals = new TestPrincipals(config)
                .ingest("size-subscriber")
                .gatewayFor("device-5", List.of("big-5", "small-5"))
                .gatewayFor("device-3", List.of("big-3", "small-3"));
        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();
            Mqtt5BlockingClient subscriber = principals.client("size-subscriber");
            subscriber.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                subscriber
                        .subscribeWith()
                        .topicFilter("fleet/+/position")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();

                Mqtt5BlockingClient device = principals.client("device-5");
                Mqtt5ConnAck connectionAcknowledgement = device.connect();
                assertThat(connectionAcknowledgement.getRestrictions().getMaximumPacketSize())
                        .isEqualTo(MqttBrokerConfig.DEFAULT_MAX_PACKET_SIZE);
                assertThat(connectionAcknowledgement.getRestrictions().getReceiveMaximum())
                        .isEqualTo(MqttBrokerConfig.DEFAULT_SERVER_RECEIVE_MAXIMUM);
                assertThatThrownBy(() -> device.publishWith()
                                .topic("fleet/big-5/position")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .payload(new byte[MqttBrokerConfig.DEFAULT_MAX_PACKET_SIZE])
                                .send())
                        .hasMessageContaining("maximum packet size");
                publish(device, "fleet/small-5/position", "after-refusal-5");

                Mqtt3BlockingClient legacyDevice = principals.legacyClient("device-3");
                legacyDevice.connect();
                assertThatThrownBy(() -> legacyDevice
                                .publishWith()
                                .topic("fleet/big-3/position")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .payload(new byte[MqttBrokerConfig.DEFAULT_MAX_PACKET_SIZE])
                                .send())
                        .as("the broker disconnects an MQTT 3.1.1 client that sends too large a packet");
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !legacyDevice.getState().isConnected());
                legacyDevice.connect();
                legacyDevice
                        .publishWith()
                        .topic("fleet/small-3/position")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("after-refusal-3".getBytes(StandardCharsets.UTF_8))
                        .send();

                Set<String> received = new HashSet<>();
                Optional<Mqtt5Publish> publish;
                while (received.size() < 2 && (publish = publishes.receive(30, TimeUnit.SECONDS)).isPresent()) {
                    received.add(publish.get().getTopic() + " "
                            + new String(publish.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
                }
                assertThat(received)
                        .containsExactlyInAnyOrder(
                                "fleet/small-5/position after-refusal-5", "fleet/small-3/position after-refusal-3");
                assertThat(publishes.receive(2, TimeUnit.SECONDS))
                        .as("no oversized message")
                        .isEmpty();
                device.disconnect();
                legacyDevice.disconnect();
            }
            subscriber.disconnect();
        }
    }

    /**
     * HiveMQ's own limit of unacknowledged messages towards a subscriber is 50, whatever its receive maximum; the
     * broker raises it to {@code mqtt.max-inflight-window}, so that a subscriber that acknowledges late (the ingest
     * connector waits for Kafka) is not capped at 50 messages per round trip.
     */
    @Test
    void subscriberGetsTheInflightWindowOfUnacknowledgedMessages() throws Exception {
        int window = 200;
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                MqttBrokerConfig.PORT, Integer.toString(freePort()),
                MqttBrokerConfig.DATA_DIRECTORY, dataDirectory.toString(),
                MqttBrokerConfig.MAX_INFLIGHT_WINDOW, Integer.toString(window))));

        TestPrincipals principals =
                new TestPrincipals(config).ingest("slow-subscriber").gateway("fast-publisher", "vehicle-");
        try (MqttBroker broker = new MqttBroker(config)) {
            broker.start();
            List<Mqtt5Publish> unacknowledged = new CopyOnWriteArrayList<>();
            Mqtt5AsyncClient subscriber =
                    principals.builder("slow-subscriber", "slow-subscriber").buildAsync();
            ExecutorService delivery = Executors.newSingleThreadExecutor();
            subscriber.publishes(MqttGlobalPublishFilter.ALL, unacknowledged::add, delivery, true);
            subscriber
                    .connectWith()
                    .cleanStart(false)
                    .sessionExpiryInterval(SESSION_EXPIRY_SECONDS)
                    .restrictions()
                    .receiveMaximum(10_000)
                    .applyRestrictions()
                    .send()
                    .get(30, TimeUnit.SECONDS);
            subscriber
                    .subscribeWith()
                    .topicFilter("fleet/+/position")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send()
                    .get(30, TimeUnit.SECONDS);

            Mqtt5BlockingClient publisher = principals.client("fast-publisher");
            publisher.connect();
            // One topic per message: HiveMQ sends the next message of one topic only after the previous one was
            // acknowledged (ordered topics), as a fleet has one topic per vehicle.
            for (int sequence = 0; sequence < 300; sequence++) {
                publish(publisher, "fleet/vehicle-" + sequence + "/position", Integer.toString(sequence));
            }

            // A new connection gets one message first; the window applies once that one is acknowledged.
            await().atMost(Duration.ofSeconds(60)).until(() -> !unacknowledged.isEmpty());
            unacknowledged.get(0).acknowledge();
            await().atMost(Duration.ofSeconds(60)).until(() -> unacknowledged.size() >= 1 + window);
            assertThat(unacknowledged)
                    .as("no more than the window without an acknowledgement")
                    .hasSize(1 + window);
            unacknowledged.subList(1, 1 + window).forEach(Mqtt5Publish::acknowledge);
            await().atMost(Duration.ofSeconds(60)).until(() -> unacknowledged.size() == 300);
            unacknowledged.subList(1 + window, 300).forEach(Mqtt5Publish::acknowledge);
            publisher.disconnect();
            subscriber.disconnect().get(30, TimeUnit.SECONDS);
            delivery.shutdownNow();
        }
    }

    private static void publish(Mqtt5BlockingClient client, String topic, String payload) {
        client.publishWith()
                .topic(topic)
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(payload.getBytes(StandardCharsets.UTF_8))
                .send();
    }

    /** Gives {@value #SUBSCRIBER} a persistent session with a QoS 1 subscription and leaves: messages queue for it. */
    private static Mqtt5ConnAck subscribePersistentlyAndLeave(TestPrincipals principals) {
        Mqtt5BlockingClient subscriber = principals.client(SUBSCRIBER);
        Mqtt5ConnAck connectionAcknowledgement = connectPersistent(subscriber);
        subscriber
                .subscribeWith()
                .topicFilter("fleet/+/position")
                .qos(MqttQos.AT_LEAST_ONCE)
                .send();
        subscriber.disconnect();
        return connectionAcknowledgement;
    }

    private static Mqtt5ConnAck connectPersistent(Mqtt5BlockingClient client) {
        return client.connectWith()
                .cleanStart(false)
                .sessionExpiryInterval(SESSION_EXPIRY_SECONDS)
                .send();
    }

    static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }
}
