package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FleetSimulatorTest {
    @Test
    void publishesEveryVehicleOncePerFixIntervalForTheDuration() throws InterruptedException {
        FleetSimulatorConfig config = config(
                Map.of("simulator.vehicles", "20", "simulator.fix-interval", "200ms", "simulator.duration", "1s"));
        RecordingPublisher publisher = new RecordingPublisher();
        FleetSimulator simulator = new FleetSimulator(config, publisher);
        // Event times have millisecond precision.
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        SimulationSummary summary = simulator.run();

        Instant after = Instant.now();
        // Fixes are due every 10 ms (20 vehicles / 200 ms); the one due at 1 s is past the duration.
        assertThat(summary).isEqualTo(new SimulationSummary(100, 100, 0, 20, summary.duration()));
        assertThat(summary.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(990));
        Map<String, Long> perVehicle = publisher.positions().stream()
                .collect(Collectors.groupingBy(Position::vehicleId, Collectors.counting()));
        assertThat(perVehicle).hasSize(20).allSatisfy((vehicle, count) -> assertThat(count)
                .isEqualTo(5L));
        assertThat(publisher.positions())
                .allSatisfy(position -> assertThat(position.eventTime()).isBetween(before, after));
        for (Vehicle vehicle : simulator.model().vehicles()) {
            assertThat(publisher.formatsOf(vehicle.vehicleId())).containsOnly(vehicle.payloadFormat());
        }
        assertThat(simulator.model().vehicles())
                .filteredOn(vehicle -> vehicle.payloadFormat() == PayloadFormat.JSON)
                .hasSize(2);
    }

    @Test
    void rateCapsPublishingAndKeepsVehiclesInTurn() throws InterruptedException {
        FleetSimulatorConfig config = config(Map.of(
                "simulator.vehicles", "50",
                "simulator.fix-interval", "100ms",
                "simulator.rate", "50",
                "simulator.duration", "1s"));
        RecordingPublisher publisher = new RecordingPublisher();

        SimulationSummary summary = new FleetSimulator(config, publisher).run();

        // The natural rate would be 500 messages/s; the cap lets 50 through in one second, 20 ms apart.
        assertThat(summary.published()).isBetween(25L, 50L);
        List<String> order =
                publisher.positions().stream().map(Position::vehicleId).collect(Collectors.toList());
        for (int i = 0; i < order.size(); i++) {
            assertThat(order.get(i)).isEqualTo(Vehicle.idOf(i));
        }
    }

    @Test
    void stopEndsAnOpenEndedRunFromAnotherThread() throws Exception {
        FleetSimulatorConfig config = config(
                Map.of("simulator.vehicles", "10", "simulator.fix-interval", "100ms", "simulator.duration", "0s"));
        RecordingPublisher publisher = new RecordingPublisher();
        FleetSimulator simulator = new FleetSimulator(config, publisher);

        CompletableFuture<SimulationSummary> running = simulator.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> publisher.positions().size() >= 10);
        assertThat(running).isNotDone();
        simulator.stop();

        SimulationSummary summary = running.get(10, TimeUnit.SECONDS);
        assertThat(summary.published()).isGreaterThanOrEqualTo(10);
        assertThat(summary.acknowledged()).isEqualTo(summary.published());
    }

    @Test
    void closeWakesARunWaitingForRoomInTheInFlightWindow() throws Exception {
        FleetSimulatorConfig config = config(Map.of(
                "simulator.vehicles", "5",
                "simulator.fix-interval", "10ms",
                "simulator.duration", "0s",
                "simulator.close-timeout", "0s"));
        BlockedPublisher publisher = new BlockedPublisher();
        FleetSimulator simulator = new FleetSimulator(config, publisher);

        CompletableFuture<SimulationSummary> running = simulator.start();
        assertThat(publisher.waiting.await(10, TimeUnit.SECONDS)).isTrue();
        simulator.close();

        assertThat(running).isCompleted();
        assertThat(running.get().published()).isZero();
    }

    @Test
    void runsOnlyOnce() throws InterruptedException {
        FleetSimulatorConfig config = config(Map.of("simulator.vehicles", "1", "simulator.duration", "10ms"));
        FleetSimulator simulator = new FleetSimulator(config, new RecordingPublisher());
        simulator.run();

        assertThatThrownBy(simulator::run).hasMessageContaining("already run");
        assertThatThrownBy(simulator::start).hasMessageContaining("already run");
    }

    @Test
    void modelEpochIsTheStartOfTheDay() {
        Clock clock = Clock.fixed(Instant.parse("2026-03-01T17:45:12Z"), ZoneOffset.UTC);
        FleetSimulator simulator = new FleetSimulator(FleetSimulatorConfig.defaults(), new RecordingPublisher(), clock);

        assertThat(simulator.model().epoch()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThat(simulator.model().vehicles()).hasSize(340);
    }

    private static FleetSimulatorConfig config(Map<String, String> values) {
        return FleetSimulatorConfig.from(ConfigSource.of(values));
    }

    /** Acknowledges every message at once and remembers it. */
    private static final class RecordingPublisher implements PositionPublisher {
        private final List<Position> positions = new ArrayList<>();
        private final List<PayloadFormat> formats = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<Void> publish(Position position, PayloadFormat format) {
            positions.add(position);
            formats.add(format);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public synchronized PublishCounts counts() {
            return new PublishCounts(positions.size(), positions.size(), 0);
        }

        @Override
        public boolean awaitAcknowledgements(Duration timeout) {
            return true;
        }

        synchronized List<Position> positions() {
            return List.copyOf(positions);
        }

        synchronized List<PayloadFormat> formatsOf(String vehicleId) {
            List<PayloadFormat> result = new ArrayList<>();
            for (int i = 0; i < positions.size(); i++) {
                if (positions.get(i).vehicleId().equals(vehicleId)) {
                    result.add(formats.get(i));
                }
            }
            return result;
        }
    }

    /** A publisher whose in-flight window never frees up: publishing waits until interrupted. */
    private static final class BlockedPublisher implements PositionPublisher {
        private final CountDownLatch waiting = new CountDownLatch(1);
        private final CountDownLatch never = new CountDownLatch(1);

        @Override
        public CompletableFuture<Void> publish(Position position, PayloadFormat format) throws InterruptedException {
            waiting.countDown();
            never.await();
            throw new IllegalStateException("The window never frees up");
        }

        @Override
        public PublishCounts counts() {
            return PublishCounts.NONE;
        }

        @Override
        public boolean awaitAcknowledgements(Duration timeout) {
            return false;
        }
    }
}
