package io.fleetlake.simulator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.geo.Regions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The fleet patterns on the model alone: delivery stops, firmware 2, detours, GPS glitches and garage outages. */
class FleetIncidentsTest {
    private static final Instant EPOCH = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration FIX_INTERVAL = Duration.ofSeconds(5);
    private static final Duration SPAN = Duration.ofHours(12);
    private static final int VEHICLES = 40;
    /** The simulator's defaults. */
    private static final FleetPatterns DEFAULTS =
            new FleetPatterns(0.3, Duration.ofMinutes(3), 0.2, 0.5, 0.1, Duration.ofMinutes(10), Duration.ofSeconds(1));

    private static final FleetModel FLEET = new FleetModel(42, VEHICLES, 0.1, DEFAULTS, EPOCH);
    /** What every device of the fleet sent over the span, fix by fix, one fix every 5 s. */
    private static final Map<Vehicle, List<Transmission>> SENT = drive(FLEET, SPAN);

    @Test
    void garageOutagesSilenceTheDeviceAndThenSendTheBufferOldestFirst() {
        int outages = 0;
        for (Map.Entry<Vehicle, List<Transmission>> entry : SENT.entrySet()) {
            Vehicle vehicle = entry.getKey();
            Optional<GarageOutage> previousOutage = Optional.empty();
            for (Transmission transmission : entry.getValue()) {
                Optional<GarageOutage> outage = FLEET.garageOutage(vehicle, transmission.fixTime());
                List<Position> messages = transmission.messages();
                if (outage.isPresent()) {
                    assertThat(messages)
                            .as("%s offline at %s", vehicle, transmission.fixTime())
                            .isEmpty();
                } else if (previousOutage.isPresent()) {
                    GarageOutage ended = previousOutage.get();
                    List<Position> buffered = messages.subList(0, messages.size() - 1);
                    List<Instant> expectedTimes = new ArrayList<>();
                    for (Instant time = ended.start(); time.isBefore(ended.end()); time = time.plusSeconds(1)) {
                        expectedTimes.add(time);
                    }
                    assertThat(buffered).extracting(Position::eventTime).containsExactlyElementsOf(expectedTimes);
                    assertThat(buffered).hasSize(600);
                    assertThat(buffered).allSatisfy(position -> assertThat(position)
                            .isEqualTo(FLEET.position(vehicle, position.eventTime())));
                    assertThat(messages.get(messages.size() - 1).eventTime()).isEqualTo(transmission.fixTime());
                    outages++;
                } else {
                    assertThat(messages).hasSize(1);
                    assertThat(messages.get(0).eventTime()).isEqualTo(transmission.fixTime());
                }
                previousOutage = outage;
            }
        }
        // 0.1 outages per vehicle-hour over 480 vehicle-hours: about 48.
        assertThat(outages).isBetween(30, 70);
    }

    @Test
    void everyDeviceSendsItsFixesInEventTimeOrderAndInsideTheRegion() {
        for (List<Transmission> transmissions : SENT.values()) {
            List<Position> sent = messages(transmissions);
            assertThat(sent).extracting(Position::eventTime).isSorted().doesNotHaveDuplicates();
            assertThat(sent).allSatisfy(position -> assertThat(Regions.IBERIA_MAINLAND.contains(point(position)))
                    .isTrue());
        }
    }

    @Test
    void aGlitchMovesOneFixTensOfKilometresAwayAndTheNextFixIsNormalAgain() {
        int glitches = 0;
        int normalPairs = 0;
        for (Map.Entry<Vehicle, List<Transmission>> entry : SENT.entrySet()) {
            List<Position> stream = messages(entry.getValue());
            for (int i = 1; i < stream.size() - 1; i++) {
                Position previous = stream.get(i - 1);
                Position current = stream.get(i);
                Position next = stream.get(i + 1);
                if (glitched(current)) {
                    glitches++;
                    Position truth = FLEET.position(entry.getKey(), current.eventTime());
                    assertThat(distanceMeters(truth, current))
                            .isBetween(
                                    VehicleIncidents.MINIMUM_GLITCH_METERS - 1,
                                    VehicleIncidents.MAXIMUM_GLITCH_METERS + 1);
                    assertThat(distanceMeters(previous, current)).isGreaterThan(15_000);
                    assertThat(distanceMeters(current, next)).isGreaterThan(15_000);
                    // The pipeline's default maximum implied speed is 300 km/h: the jump is rejected.
                    assertThat(impliedSpeedKmh(previous, current)).isGreaterThan(3_000);
                    assertThat(glitched(next)).isFalse();
                    assertThat(Regions.IBERIA_MAINLAND.contains(point(current))).isTrue();
                    assertThat(current.speedKmh()).isEqualTo(truth.speedKmh());
                } else if (!glitched(previous)) {
                    normalPairs++;
                    assertThat(impliedSpeedKmh(previous, current))
                            .as("%s then %s", previous, current)
                            .isLessThan(150);
                }
            }
        }
        // 0.5 glitches per vehicle-hour over 480 vehicle-hours: about 240.
        assertThat(glitches).isBetween(180, 300);
        assertThat(normalPairs).isGreaterThan(300_000);
    }

    @Test
    void deviationsLeaveThePlannedPathAndRejoinIt() {
        Map<Deviation, Vehicle> deviations = new LinkedHashMap<>();
        for (Map.Entry<Vehicle, List<Transmission>> entry : SENT.entrySet()) {
            for (Transmission transmission : entry.getValue()) {
                FLEET.deviations(entry.getKey(), transmission.fixTime())
                        .forEach(deviation -> deviations.put(deviation, entry.getKey()));
            }
        }
        // 0.2 per vehicle-hour over 480 vehicle-hours: about 96, less those slots without a long enough steady drive.
        assertThat(deviations).hasSizeBetween(50, 110);
        double smallestShare = 1;
        for (Map.Entry<Deviation, Vehicle> entry : deviations.entrySet()) {
            Deviation deviation = entry.getKey();
            Vehicle vehicle = entry.getValue();
            assertThat(Duration.between(deviation.start(), deviation.end()))
                    .isBetween(VehicleIncidents.MINIMUM_DEVIATION, VehicleIncidents.MAXIMUM_DEVIATION);
            assertThat(deviation.offsetMeters()).isBetween(300.0, 800.0);
            Route route = FLEET.route(vehicle, deviation.start());
            assertThat(FLEET.route(vehicle, deviation.end())).isEqualTo(route);

            assertThat(distanceFromPath(vehicle, deviation.start().minusSeconds(1), route))
                    .isLessThan(0.5);
            Instant middle = deviation
                    .start()
                    .plus(Duration.between(deviation.start(), deviation.end()).dividedBy(2));
            double offPath = distanceFromPath(vehicle, middle, route);
            assertThat(offPath).isLessThanOrEqualTo(deviation.offsetMeters() + 1);
            smallestShare = Math.min(smallestShare, offPath / deviation.offsetMeters());
            assertThat(distanceFromPath(vehicle, deviation.end(), route)).isLessThan(0.5);
            for (Instant time = deviation.start(); time.isBefore(deviation.end()); time = time.plusSeconds(5)) {
                assertThat(FLEET.position(vehicle, time).speedKmh()).isBetween(20.0, 150.0);
            }
        }
        // The course stays within 30 degrees of the course at the start, so the detour keeps its distance.
        assertThat(smallestShare).isGreaterThan(0.8);
    }

    @Test
    void vehiclesHaltAtEachStopForAboutTheDeliveryStopDuration() {
        int checkedStops = 0;
        for (Vehicle vehicle : FLEET.vehicles().subList(0, 20)) {
            Map<String, Route> routes = new LinkedHashMap<>();
            Map<String, Integer> stoppedSamples = new LinkedHashMap<>();
            for (Instant time = EPOCH; time.isBefore(EPOCH.plus(SPAN)); time = time.plusSeconds(1)) {
                Route route = FLEET.route(vehicle, time);
                routes.putIfAbsent(route.routeId(), route);
                Position position = FLEET.position(vehicle, time);
                for (int index = 1; index < route.stops().size(); index++) {
                    Stop stop = route.stops().get(index);
                    if (position.latitude() == round6(stop.location().latitude())
                            && position.longitude() == round6(stop.location().longitude())) {
                        assertThat(position.speedKmh()).isZero();
                        stoppedSamples.merge(route.routeId() + "-S" + index, 1, Integer::sum);
                    }
                }
            }
            List<Route> driven = new ArrayList<>(routes.values());
            // Trips wholly inside the span: the first may have started before it, the last may not have ended.
            for (Route route : driven.subList(1, driven.size() - 1)) {
                for (int index = 1; index < route.stops().size(); index++) {
                    Duration dwell = route.stops().get(index).dwell();
                    assertThat(dwell).isBetween(Duration.ofSeconds(144), Duration.ofSeconds(216));
                    assertThat(stoppedSamples.get(route.routeId() + "-S" + index))
                            .as("seconds %s halted at stop %d of %s", vehicle.vehicleId(), index, route.routeId())
                            .isCloseTo((int) dwell.toSeconds(), within(1));
                    checkedStops++;
                }
            }
        }
        assertThat(checkedStops).isGreaterThan(50);
    }

    @Test
    void aDeliveryStopDurationOfZeroDrivesThroughTheStops() {
        FleetModel fleet = new FleetModel(42, 10, 0.1, FleetPatterns.noIncidents(Duration.ZERO), EPOCH);
        for (Vehicle vehicle : fleet.vehicles()) {
            Route route = fleet.route(vehicle, EPOCH.plus(Duration.ofHours(6)));
            assertThat(route.stops())
                    .allSatisfy(stop -> assertThat(stop.dwell()).isZero());
        }
    }

    @Test
    void theConfiguredShareOfDevicesRunsFirmware2AndReportsASlowlyDrainingBattery() {
        FleetModel fleet = new FleetModel(42, 340, 0.1, DEFAULTS, EPOCH);
        Set<String> firmware2 = firmware2Vehicles(fleet);
        assertThat(firmware2).hasSize(102);
        assertThat(firmware2Vehicles(new FleetModel(42, 340, 0.1, DEFAULTS, EPOCH)))
                .isEqualTo(firmware2);
        assertThat(firmware2Vehicles(new FleetModel(43, 340, 0.1, DEFAULTS, EPOCH)))
                .hasSize(102)
                .isNotEqualTo(firmware2);
        assertThat(fleet.vehicles())
                .filteredOn(vehicle -> vehicle.payloadFormat() == PayloadFormat.JSON && vehicle.reportsBattery())
                .isNotEmpty();

        for (Vehicle vehicle : fleet.vehicles()) {
            Double previous = null;
            for (Instant time = EPOCH; time.isBefore(EPOCH.plus(SPAN)); time = time.plus(Duration.ofMinutes(10))) {
                Double battery = fleet.position(vehicle, time).batteryLevel();
                if (!vehicle.reportsBattery()) {
                    assertThat(battery).isNull();
                    continue;
                }
                assertThat(battery).isBetween(FleetModel.EMPTY_BATTERY, 100.0);
                if (previous != null && battery <= previous) {
                    // At most 2 % per hour: 0.33 % in ten minutes, plus rounding.
                    assertThat(previous - battery).isLessThanOrEqualTo(0.5);
                } else if (previous != null) {
                    assertThat(previous).as("charged only when nearly empty").isLessThan(FleetModel.EMPTY_BATTERY + 1);
                }
                previous = battery;
            }
        }
    }

    @Test
    void sameSeedSendsTheSameMessagesWhateverTheOrderOfQuestions() {
        FleetModel first = new FleetModel(42, VEHICLES, 0.1, DEFAULTS, EPOCH);
        // One vehicle after the other for the first model, all vehicles in turn (as the simulator does) for the second.
        Map<Vehicle, List<Transmission>> vehicleByVehicle = drive(first, Duration.ofHours(3));
        FleetModel second = new FleetModel(42, VEHICLES, 0.1, DEFAULTS, EPOCH);
        Map<Vehicle, Device> devices = new LinkedHashMap<>();
        second.vehicles().forEach(vehicle -> devices.put(vehicle, second.device(vehicle, EPOCH)));
        Map<Vehicle, List<Transmission>> inTurn = new LinkedHashMap<>();
        for (Instant base = EPOCH; base.isBefore(EPOCH.plus(Duration.ofHours(3))); base = base.plus(FIX_INTERVAL)) {
            for (Vehicle vehicle : second.vehicles()) {
                Instant time = base.plusMillis(vehicle.index() * 37L);
                inTurn.computeIfAbsent(vehicle, ignored -> new ArrayList<>())
                        .add(new Transmission(time, devices.get(vehicle).fix(time)));
            }
        }

        assertThat(inTurn).isEqualTo(vehicleByVehicle);
        assertThat(messages(vehicleByVehicle.values()))
                .isNotEqualTo(messages(drive(new FleetModel(7, VEHICLES, 0.1, DEFAULTS, EPOCH), Duration.ofHours(3))
                        .values()));
    }

    @Test
    void incidentsAndDeviceVersionsDoNotChangeRoutes() {
        FleetModel plain = new FleetModel(42, VEHICLES, 0.5, FleetPatterns.noIncidents(Duration.ofMinutes(3)), EPOCH);
        for (Vehicle vehicle : FLEET.vehicles()) {
            for (Instant time = EPOCH; time.isBefore(EPOCH.plus(SPAN)); time = time.plus(Duration.ofMinutes(7))) {
                assertThat(plain.route(plain.vehicles().get(vehicle.index()), time))
                        .isEqualTo(FLEET.route(vehicle, time));
            }
        }
    }

    @Test
    void aScheduledGarageOutageBuffersAFixEverySecondAndSendsThemAllAfterwards() {
        FleetModel fleet = quietFleet();
        Vehicle vehicle = fleet.vehicles().get(4);
        Instant poweredOn = EPOCH.plus(Duration.ofHours(5));
        Device device = fleet.device(vehicle, poweredOn);
        assertThat(device.fix(poweredOn)).hasSize(1);
        GarageOutage outage = fleet.scheduleGarageOutage(vehicle, poweredOn.plusMillis(2_500), Duration.ofMinutes(10));

        List<Position> afterwards = List.of();
        Instant time = poweredOn;
        while (afterwards.isEmpty()) {
            time = time.plus(FIX_INTERVAL);
            afterwards = device.fix(time);
            if (time.isBefore(outage.end())) {
                assertThat(afterwards).isEmpty();
            }
        }

        assertThat(time).isBetween(outage.end(), outage.end().plus(FIX_INTERVAL));
        assertThat(afterwards).hasSize(601);
        assertThat(afterwards.get(0).eventTime()).isEqualTo(outage.start());
        assertThat(afterwards.get(599).eventTime()).isEqualTo(outage.start().plusSeconds(599));
        assertThat(afterwards.get(600).eventTime()).isEqualTo(time);
        assertThat(device.fix(time.plus(FIX_INTERVAL))).hasSize(1);
    }

    @Test
    void aGarageOutageBeforeTheDeviceWasSwitchedOnIsOnlyBufferedFromThen() {
        FleetModel fleet = quietFleet();
        Vehicle vehicle = fleet.vehicles().get(2);
        Instant outageStart = EPOCH.plus(Duration.ofHours(2));
        fleet.scheduleGarageOutage(vehicle, outageStart, Duration.ofMinutes(10));
        Instant poweredOn = outageStart.plus(Duration.ofMinutes(9)).plusMillis(200);
        Device device = fleet.device(vehicle, poweredOn);

        assertThat(device.fix(poweredOn)).isEmpty();
        List<Position> sent = device.fix(outageStart.plus(Duration.ofMinutes(10)));

        // The fixes at 9:01 ... 9:59 after the outage started, then the new one.
        assertThat(sent).hasSize(60);
        assertThat(sent.get(0).eventTime())
                .isEqualTo(outageStart.plus(Duration.ofMinutes(9)).plusSeconds(1));
    }

    @Test
    void aScheduledDeviationLeavesThePathAndRejoinsIt() {
        FleetModel fleet = quietFleet();
        Vehicle vehicle = fleet.vehicles().get(7);
        Instant start = EPOCH.plus(Duration.ofHours(3));
        Route route = fleet.route(vehicle, start);

        Deviation deviation = fleet.scheduleDeviation(vehicle, start, Duration.ofMinutes(6), 800);

        assertThat(fleet.deviations(vehicle, start.plus(Duration.ofMinutes(3)))).containsExactly(deviation);
        assertThat(deviation.offsetMetersAt(start.plus(Duration.ofMinutes(3)))).isEqualTo(800);
        assertThat(distanceFromPath(fleet, vehicle, start.minusSeconds(1), route))
                .isLessThan(0.5);
        assertThat(fleet.state(vehicle, start.plus(Duration.ofMinutes(3)))
                        .location()
                        .distanceMeters(
                                fleet.state(vehicle, start.minusSeconds(1)).location()))
                .isGreaterThan(300);
        assertThat(fleet.deviations(vehicle, deviation.end())).isEmpty();
        assertThat(distanceFromPath(fleet, vehicle, deviation.end(), fleet.route(vehicle, deviation.end())))
                .isLessThan(0.5);
        assertThatThrownBy(() -> fleet.scheduleDeviation(vehicle, start, Duration.ofMinutes(6), 5_000))
                .hasMessageContaining("at most 2000 m");
    }

    @Test
    void devicesRefuseFixesOutOfOrder() {
        FleetModel fleet = quietFleet();
        Device device = fleet.device(fleet.vehicles().get(0), EPOCH.plusSeconds(10));

        assertThatThrownBy(() -> device.fix(EPOCH.plusSeconds(9))).hasMessageContaining("cannot take one earlier");
        assertThatThrownBy(() -> fleet.device(fleet.vehicles().get(0), EPOCH.minusSeconds(1)))
                .hasMessageContaining("starts at");
    }

    /** Delivery stops only: no seeded incidents to interfere with the scheduled ones. */
    private static FleetModel quietFleet() {
        return new FleetModel(42, 10, 0.1, FleetPatterns.noIncidents(Duration.ofMinutes(3)), EPOCH);
    }

    private static Map<Vehicle, List<Transmission>> drive(FleetModel model, Duration span) {
        Map<Vehicle, List<Transmission>> sent = new LinkedHashMap<>();
        for (Vehicle vehicle : model.vehicles()) {
            Device device = model.device(vehicle, EPOCH);
            List<Transmission> transmissions = new ArrayList<>();
            for (Instant time = EPOCH.plusMillis(vehicle.index() * 37L);
                    time.isBefore(EPOCH.plus(span));
                    time = time.plus(FIX_INTERVAL)) {
                transmissions.add(new Transmission(time, device.fix(time)));
            }
            sent.put(vehicle, transmissions);
        }
        return sent;
    }

    private static List<Position> messages(List<Transmission> transmissions) {
        return transmissions.stream()
                .flatMap(transmission -> transmission.messages().stream())
                .toList();
    }

    private static List<Position> messages(Collection<List<Transmission>> transmissions) {
        return transmissions.stream().flatMap(list -> messages(list).stream()).toList();
    }

    private static boolean glitched(Position position) {
        return position.satellites() == FleetModel.GLITCH_SATELLITES;
    }

    private static Set<String> firmware2Vehicles(FleetModel model) {
        return model.vehicles().stream()
                .filter(Vehicle::reportsBattery)
                .map(Vehicle::vehicleId)
                .collect(Collectors.toSet());
    }

    private static double distanceFromPath(Vehicle vehicle, Instant time, Route route) {
        return distanceFromPath(FLEET, vehicle, time, route);
    }

    private static double distanceFromPath(FleetModel fleet, Vehicle vehicle, Instant time, Route route) {
        return PathGeometry.distanceToPathMeters(fleet.state(vehicle, time).location(), route.path());
    }

    private static double distanceMeters(Position first, Position second) {
        return point(first).distanceMeters(point(second));
    }

    private static double impliedSpeedKmh(Position first, Position second) {
        double seconds = Math.max(
                1, Duration.between(first.eventTime(), second.eventTime()).toMillis() / 1000.0);
        return distanceMeters(first, second) / seconds * 3.6;
    }

    private static GeoPoint point(Position position) {
        return new GeoPoint(position.latitude(), position.longitude());
    }

    private static double round6(double degrees) {
        return Math.round(degrees * 1e6) / 1e6;
    }

    /** The messages a device sent when it took the fix at {@code fixTime}. */
    private record Transmission(Instant fixTime, List<Position> messages) {}
}
