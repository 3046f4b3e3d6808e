package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.operations.verify.FixKey;
import io.fleetlake.servers.mqtt.FloodingMqttClient;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Restarts on the ingest path lose nothing. The ingest connector acknowledges an MQTT message only after Kafka has it,
 * so killing the Connect worker while devices publish loses nothing: the broker redelivers unacknowledged messages to
 * the connector's persistent session, and the pipeline turns redeliveries into one row each. And a device that re-sends
 * everything it queued during a broker restart at once is accepted, each of its positions stored once.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class ConnectorRestartIT {
    private static final String PREFIX = "RST-";
    private static final int VEHICLES = 10;
    private static final int FIXES_PER_VEHICLE = 120;
    private static final String BURST_PREFIX = "BST-";
    private static final String BURST_CLIENT = "burst-gateway";
    private static final String BURST_CANARY = "BSC-01";
    private static final Duration BURST_SESSION_EXPIRY = Duration.ofHours(1);
    private static final int BURST_VEHICLES = 40;
    /** 40 × 90 = 3,600 positions, 36 times the Receive Maximum the broker had (100). */
    private static final int BURST_FIXES_PER_VEHICLE = 90;

    @Test
    void killingTheConnectWorkerWhileMessagesFlowLosesNothing(RunningStack running) throws Exception {
        List<Position> positions = positions();
        CompletableFuture<Void> publishing;
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "restart-test")) {
            publishing = CompletableFuture.runAsync(() -> publishPaced(publisher, positions));
            await().atMost(Duration.ofSeconds(30)).until(() -> rawRecordsOfThisTest(running) > 100);

            running.stack().crashAndRestart(FleetStack.CONNECT);

            publishing.get(5, TimeUnit.MINUTES);
            publisher.awaitAcknowledgements();
        }

        Set<String> expected = new HashSet<>();
        positions.forEach(position -> expected.add(identity(position)));
        await().atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(identitiesInKafka(running)).containsAll(expected));

        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        String count = "SELECT count(*), count(DISTINCT (vehicle_id, event_time)) FROM "
                + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?";
        await().atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(2))
                .until(() ->
                        Long.parseLong(trino.query(count, PREFIX + "%").get(0).get(0)) >= positions.size());
        List<String> counts = trino.query(count, PREFIX + "%").get(0);
        assertThat(counts)
                .as("rows and distinct (vehicle_id, event_time)")
                .containsExactly(Integer.toString(positions.size()), Integer.toString(positions.size()));
    }

    /**
     * Devices flood on reconnect (paho-mqtt 2.x and many device SDKs): a gateway with a persistent session queues
     * positions of its vehicles while the MQTT broker restarts, then writes every one at once, ignoring the broker's
     * Receive Maximum. The broker must acknowledge each without disconnecting the gateway (with a Receive Maximum of 100
     * it was disconnected at once and at every retry), and nothing may be dropped on the way on: the connector's
     * subscription takes the burst through the broker's queue for its session, and every position is exactly one row of
     * {@code fleet.positions}.
     */
    @Test
    void deviceResendingItsQueueAtOnceAfterABrokerRestartIsAcceptedAndEveryPositionStoredOnce(RunningStack running)
            throws Exception {
        StackSettings settings = running.settings();
        URI broker = URI.create(settings.mqttUri());
        Duration connectTimeout = Duration.ofSeconds(30);
        TestGateways.Credentials credentials = TestGateways.gateway(settings, BURST_CLIENT);
        try (FloodingMqttClient gateway = FloodingMqttClient.connect(
                broker.getHost(),
                broker.getPort(),
                BURST_CLIENT,
                credentials.username(),
                credentials.password(),
                BURST_SESSION_EXPIRY,
                connectTimeout)) {
            // The broker restarts under the connected gateway, which keeps queueing while it is away.
            running.stack().restart(FleetStack.MQTT);
        }
        List<Position> positions = burstPositions();
        PositionCodec codec = PositionCodec.bundled();
        List<FloodingMqttClient.Message> queued = new ArrayList<>();
        for (int index = 0; index < positions.size(); index++) {
            Position position = positions.get(index);
            queued.add(new FloodingMqttClient.Message(
                    MqttTopics.positionTopic(position.vehicleId()),
                    index % 2 == 0 ? codec.encodeAvro(position) : codec.encodeJson(position)));
        }

        FloodingMqttClient.Outcome outcome;
        try (FloodingMqttClient gateway = FloodingMqttClient.connect(
                broker.getHost(),
                broker.getPort(),
                BURST_CLIENT,
                credentials.username(),
                credentials.password(),
                BURST_SESSION_EXPIRY,
                connectTimeout)) {
            awaitSubscription(gateway, codec);
            outcome = gateway.flood(queued, Duration.ofMinutes(3));
        }
        assertThat(outcome.disconnectReason())
                .as("the broker did not disconnect the gateway: %s", outcome)
                .isEmpty();
        assertThat(outcome.acknowledgements())
                .as("every publish acknowledged: %s", outcome)
                .hasSize(positions.size());
        assertThat(outcome.refused())
                .as("PUBACKs with an error reason code (0x10: no subscription matched, the connector's was missing)")
                .isEmpty();

        Set<FixKey> keys = new HashSet<>();
        positions.forEach(position -> keys.add(FixKey.of(position.vehicleId(), position.eventTime())));
        await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofSeconds(3))
                .ignoreExceptions()
                .until(() -> LedgerCheck.exactlyOnce(settings, BURST_PREFIX, keys)
                        .missing()
                        .isEmpty());
        LedgerCheck.ExactlyOnce stored = LedgerCheck.exactlyOnce(settings, BURST_PREFIX, keys);
        assertThat(stored.missing()).as("positions without a row").isEmpty();
        assertThat(stored.duplicated()).as("positions stored more than once").isEmpty();
        assertThat(LedgerCheck.rows(settings, BURST_PREFIX))
                .as("rows of the gateway's vehicles")
                .isEqualTo(positions.size());
    }

    /**
     * Waits until a subscription matches the gateway's topics, publishing a canary position (a vehicle of its own) each
     * second. The embedded broker keeps the connector's session and subscription across its restart (file persistence),
     * so the first canary is acknowledged with success at once, whether or not the connector has reconnected yet; the
     * containers' Mosquitto keeps no session across a restart, so there the connector has to subscribe again first.
     */
    private static void awaitSubscription(FloodingMqttClient gateway, PositionCodec codec) {
        Instant firstCanary = Instant.now().minus(20, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        AtomicInteger canaries = new AtomicInteger();
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    Position canary = Position.of(
                            BURST_CANARY, firstCanary.plusSeconds(canaries.getAndIncrement()), 40.30, -3.70, 0.0, 0.0);
                    FloodingMqttClient.Outcome outcome = gateway.flood(
                            List.of(new FloodingMqttClient.Message(
                                    MqttTopics.positionTopic(BURST_CANARY), codec.encodeAvro(canary))),
                            Duration.ofSeconds(30));
                    return outcome.acknowledgements().containsValue(FloodingMqttClient.SUCCESS);
                });
    }

    /** One fix per vehicle and second for a minute and a half: what a gateway queues during a long broker restart. */
    private static List<Position> burstPositions() {
        Instant start = Instant.now().minus(20, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < BURST_FIXES_PER_VEHICLE; fix++) {
            for (int vehicle = 0; vehicle < BURST_VEHICLES; vehicle++) {
                positions.add(Position.of(
                        BURST_PREFIX + String.format("%02d", vehicle + 1),
                        start.plusSeconds(fix),
                        40.40 + vehicle * 0.01 + fix * 0.0001,
                        -3.70 + fix * 0.0001,
                        40.0,
                        90.0));
            }
        }
        return positions;
    }

    private static void publishPaced(TestPublisher publisher, List<Position> positions) {
        try {
            for (int i = 0; i < positions.size(); i++) {
                publisher.publish(positions.get(i), io.fleetlake.model.codec.PayloadFormat.AVRO);
                if (i % 20 == 19) {
                    // about 200 positions per second: the restart happens while devices are publishing
                    TimeUnit.MILLISECONDS.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long rawRecordsOfThisTest(RunningStack running) {
        return identitiesInKafka(running).size();
    }

    private static Set<String> identitiesInKafka(RunningStack running) {
        PositionCodec codec = PositionCodec.bundled();
        Set<String> identities = new HashSet<>();
        new KafkaInspector(running.settings().kafkaBootstrapServers())
                .readAll(Topics.RAW_POSITIONS)
                .forEach(record -> {
                    if (codec.decode(record.value()) instanceof DecodeResult.Decoded decoded
                            && decoded.position().vehicleId().startsWith(PREFIX)) {
                        identities.add(identity(decoded.position()));
                    }
                });
        return identities;
    }

    private static List<Position> positions() {
        Instant start = Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < FIXES_PER_VEHICLE; fix++) {
            for (int vehicle = 0; vehicle < VEHICLES; vehicle++) {
                positions.add(Position.of(
                        PREFIX + String.format("%02d", vehicle + 1),
                        start.plusSeconds(5L * fix),
                        41.38 + vehicle * 0.01 + fix * 0.0003,
                        2.17 + fix * 0.0003,
                        50.0,
                        45.0));
            }
        }
        return positions;
    }

    private static String identity(Position position) {
        return position.vehicleId() + "@" + position.eventTime().toEpochMilli();
    }
}
