package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.model.Deviation;
import io.fleetlake.simulator.model.GarageOutage;
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
        // Without garage outages, which would silence a vehicle for a while.
        FleetSimulatorConfig config = config(Map.of(
                "simulator.vehicles", "20",
                "simulator.fix-interval", "200ms",
                "simulator.duration", "1s",
                "simulator.garage-rate", "0"));
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
            assertThat(publisher.schemaVersionsOf(vehicle.vehicleId())).containsOnly(vehicle.schemaVersion());
        }
        assertThat(simulator.model().vehicles())
                .filteredOn(vehicle -> vehicle.payloadFormat() == PayloadFormat.JSON)
                .hasSize(2);
        assertThat(simulator.model().vehicles())
                .filteredOn(Vehicle::reportsBattery)
                .hasSize(6);
    }

    @Test
    void aTriggeredGarageOutageSilencesTheVehicleThenPublishesItsBufferAtOnce() throws Exception {
        FleetSimulatorConfig config = config(Map.of(
                "simulator.vehicles", "5",
                "simulator.fix-interval", "100ms",
                "simulator.duration", "0s",
                "simulator.garage-rate", "0",
                "simulator.glitch-rate", "0",
                "simulator.garage-fix-interval", "10ms"));
        RecordingPublisher publisher = new RecordingPublisher();
        FleetSimulator simulator = new FleetSimulator(config, publisher);
        CompletableFuture<SimulationSummary> running = simulator.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> publisher.of("VH-0002").size() >= 2);

        GarageOutage outage = simulator.triggerGarageOutage("VH-0002", Duration.ofMillis(600));
        await().atMost(Duration.ofSeconds(10)).until(() -> publisher.of("VH-0002").stream()
                .anyMatch(sent -> sent.position().eventTime().isAfter(outage.end())));
        simulator.stop();
        running.get(10, TimeUnit.SECONDS);

        List<Sent> sent = publisher.of("VH-0002");
        assertThat(sent)
                .extracting(each -> each.position().eventTime())
                .isSorted()
                .doesNotHaveDuplicates();
        List<Sent> duringOutage = sent.stream()
                .filter(each -> outage.contains(each.position().eventTime()))
                .toList();
        List<Instant> buffer = new ArrayList<>();
        for (Instant time = outage.start(); time.isBefore(outage.end()); time = time.plusMillis(10)) {
            buffer.add(time);
        }
        assertThat(duringOutage).extracting(each -> each.position().eventTime()).containsExactlyElementsOf(buffer);
        assertThat(duringOutage)
                .allSatisfy(each -> assertThat(each.publishedAt()).isAfterOrEqualTo(outage.end()));
        // Published as one burst: no other vehicle's message in between.
        List<Sent> all = publisher.all();
        int first = all.indexOf(duringOutage.get(0));
        assertThat(all.subList(first, first + buffer.size())).containsExactlyElementsOf(duringOutage);
    }

    @Test
    void aTriggeredDeviationMovesTheVehicleOffItsPathForSixMinutes() {
        FleetSimulator simulator = new FleetSimulator(FleetSimulatorConfig.defaults(), new RecordingPublisher());
        Vehicle vehicle = simulator.model().vehicle("VH-0042").orElseThrow();

        Deviation deviation = simulator.triggerDeviation("VH-0042");

        assertThat(Duration.between(deviation.start(), deviation.end())).isEqualTo(Duration.ofMinutes(6));
        assertThat(deviation.offsetMeters()).isEqualTo(800);
        Instant middle = deviation.start().plus(Duration.ofMinutes(3));
        assertThat(simulator.model().deviations(vehicle, middle)).contains(deviation);
        assertThat(deviation.offsetMetersAt(middle)).isEqualTo(800);
        assertThatThrownBy(() -> simulator.triggerDeviation("VH-0341"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "VH-0341 is not part of the simulated fleet of 340 vehicles (VH-0001 to VH-0340)");
        assertThatThrownBy(() -> simulator.triggerGarageOutage("TRUCK-1")).hasMessageContaining("TRUCK-1");
    }

    @Test
    void rateCapsPublishingAndKeepsVehiclesInTurn() throws InterruptedException {
        FleetSimulatorConfig config = config(Map.of(
                "simulator.vehicles", "50",
                "simulator.fix-interval", "100ms",
                "simulator.rate", "50",
                "simulator.duration", "1s",
                "simulator.garage-rate", "0"));
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
        private final List<Sent> sent = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<Void> publish(
                Position position, PayloadFormat format, int schemaVersion) {
            sent.add(new Sent(position, format, schemaVersion, Instant.now()));
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public synchronized PublishCounts counts() {
            return new PublishCounts(sent.size(), sent.size(), 0);
        }

        @Override
        public boolean awaitAcknowledgements(Duration timeout) {
            return true;
        }

        synchronized List<Sent> all() {
            return List.copyOf(sent);
        }

        synchronized List<Position> positions() {
            return sent.stream().map(Sent::position).toList();
        }

        synchronized List<Sent> of(String vehicleId) {
            return sent.stream()
                    .filter(each -> each.position().vehicleId().equals(vehicleId))
                    .toList();
        }

        List<PayloadFormat> formatsOf(String vehicleId) {
            return of(vehicleId).stream().map(Sent::format).toList();
        }

        List<Integer> schemaVersionsOf(String vehicleId) {
            return of(vehicleId).stream().map(Sent::schemaVersion).toList();
        }
    }

    /** One published message and when it was published. */
    private record Sent(Position position, PayloadFormat format, int schemaVersion, Instant publishedAt) {}

    /** A publisher whose in-flight window never frees up: publishing waits until interrupted. */
    private static final class BlockedPublisher implements PositionPublisher {
        private final CountDownLatch waiting = new CountDownLatch(1);
        private final CountDownLatch never = new CountDownLatch(1);

        @Override
        public CompletableFuture<Void> publish(Position position, PayloadFormat format, int schemaVersion)
                throws InterruptedException {
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
