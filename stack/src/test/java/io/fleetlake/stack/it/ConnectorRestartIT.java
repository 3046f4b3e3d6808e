package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.inspect.KafkaInspector;
import io.fleetlake.stack.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ingest connector acknowledges an MQTT message only after its Kafka transaction committed, so killing the Connect
 * worker while devices publish loses nothing: the broker redelivers unacknowledged messages to the connector's
 * persistent session, and the pipeline turns redeliveries into one row each.
 */
@ExtendWith(SharedStack.class)
class ConnectorRestartIT {
    private static final String PREFIX = "RST-";
    private static final int VEHICLES = 10;
    private static final int FIXES_PER_VEHICLE = 120;

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

        TrinoInspector trino = new TrinoInspector(running.settings().trinoJdbcUrl());
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
