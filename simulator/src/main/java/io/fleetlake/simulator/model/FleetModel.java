package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.geo.Regions;
import io.fleetlake.simulator.model.VehicleIncidents.Glitch;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A seeded fleet driving plausible routes between the cities of mainland Spain and Portugal. Pure logic: every answer
 * is a function of the seed, the fleet size, the JSON share, the {@link FleetPatterns patterns}, the epoch, the time
 * asked for and the incidents scheduled explicitly ({@link #scheduleDeviation}, {@link #scheduleGarageOutage}). Two
 * models built with the same arguments report the same positions for the same times, in whatever order they are
 * asked.
 *
 * <p>Each vehicle starts at a home city some time (up to {@value #MAXIMUM_HEAD_START_HOURS} hours) before the epoch,
 * so that at the epoch the fleet is spread over its first trips, and then drives trip after trip: one to three legs
 * between neighbouring cities with delivery stops, urban speeds near city centres, road speeds in between, traffic
 * halts and rest breaks. On top of that, seeded per vehicle and time: detours off the planned path ({@link
 * Deviation}), GPS glitches and garage outages, which a {@link Device} turns into the messages it sends. Thread-safe,
 * except for the devices it hands out.
 */
public final class FleetModel {
    private static final long MAXIMUM_HEAD_START_HOURS = 4;
    private static final long JSON_DEVICE_SALT = 0x4A534F4E_44455649L;
    private static final long FIRMWARE_2_SALT = 0x4649524D_57415232L;
    private static final long SATELLITE_SALT = 0x53415445_4C4C4954L;
    private static final long ACCURACY_SALT = 0x41434355_52414359L;
    private static final long BATTERY_SALT = 0x42415454_45525921L;
    private static final int MINIMUM_SATELLITES = 6;
    private static final int MAXIMUM_SATELLITES = 14;
    /** A glitched fix is computed from few satellites, as at a receiver's cold start. */
    static final int GLITCH_SATELLITES = 4;
    /** A glitched fix lands at least this far inside the region outline, so that it is an implausible jump only. */
    static final double GLITCH_INLAND_MARGIN_METERS = 15_000;

    private static final double FULL_BATTERY = 100;
    /** Below this level the battery is charged (back to full). */
    static final double EMPTY_BATTERY = 15;

    private static final double MINIMUM_BATTERY_AT_EPOCH = 40;
    private static final double MINIMUM_DRAIN_PER_HOUR = 0.5;
    private static final double MAXIMUM_DRAIN_PER_HOUR = 2;
    private static final double MILLIS_PER_HOUR = Duration.ofHours(1).toMillis();
    /** Speed and heading during a deviation are measured over this much of the displaced path. */
    private static final long MOTION_SAMPLE_MILLIS = 1_000;

    private final long seed;
    private final Instant epoch;
    private final FleetPatterns patterns;
    private final List<Vehicle> vehicles;
    private final Map<String, Vehicle> vehiclesById;
    private final List<VehicleTimeline> timelines;
    private final List<VehicleIncidents> incidents;
    private final double[] batteryAtEpoch;
    private final double[] drainPerHour;

    /** A fleet on the {@link RoadNetwork#iberia() Iberian road network}. */
    public FleetModel(long seed, int vehicleCount, double jsonShare, FleetPatterns patterns, Instant epoch) {
        this(RoadNetwork.iberia(), seed, vehicleCount, jsonShare, patterns, epoch);
    }

    /**
     * @param network where the fleet drives
     * @param seed makes the fleet reproducible
     * @param vehicleCount number of vehicles, {@code VH-0001} onwards
     * @param jsonShare share of devices that send JSON instead of Avro, 0 to 1; rounded to a whole number of devices
     * @param patterns firmware versions, delivery stops and incidents
     * @param epoch the earliest time the model answers for
     */
    public FleetModel(
            RoadNetwork network, long seed, int vehicleCount, double jsonShare, FleetPatterns patterns, Instant epoch) {
        requireNonNull(network, "network is null");
        this.patterns = requireNonNull(patterns, "patterns is null");
        this.epoch = requireNonNull(epoch, "epoch is null");
        if (vehicleCount < 1) {
            throw new IllegalArgumentException("A fleet needs at least one vehicle, got " + vehicleCount);
        }
        if (!(jsonShare >= 0 && jsonShare <= 1)) {
            throw new IllegalArgumentException("The JSON share must be between 0 and 1, got " + jsonShare);
        }
        this.seed = seed;
        boolean[] json = chosenDevices(seed ^ JSON_DEVICE_SALT, vehicleCount, jsonShare);
        boolean[] firmware2 = chosenDevices(seed ^ FIRMWARE_2_SALT, vehicleCount, patterns.v2Share());
        TripPlanner planner = new TripPlanner(network, patterns.deliveryStopDuration());
        List<Vehicle> fleet = new ArrayList<>(vehicleCount);
        Map<String, Vehicle> byId = new HashMap<>();
        List<VehicleTimeline> histories = new ArrayList<>(vehicleCount);
        List<VehicleIncidents> fleetIncidents = new ArrayList<>(vehicleCount);
        this.batteryAtEpoch = new double[vehicleCount];
        this.drainPerHour = new double[vehicleCount];
        long headStartMillis = Duration.ofHours(MAXIMUM_HEAD_START_HOURS).toMillis();
        for (int index = 0; index < vehicleCount; index++) {
            Vehicle vehicle = new Vehicle(
                    index,
                    Vehicle.idOf(index),
                    json[index] ? PayloadFormat.JSON : PayloadFormat.AVRO,
                    firmware2[index] ? 2 : 1);
            SplittableRandom random = new SplittableRandom(SeedMixer.mix(seed, index));
            City home = network.cities().get(random.nextInt(network.cities().size()));
            long start = epoch.toEpochMilli() - random.nextLong(headStartMillis + 1);
            VehicleTimeline timeline = new VehicleTimeline(vehicle, planner, home, start, random);
            fleet.add(vehicle);
            byId.put(vehicle.vehicleId(), vehicle);
            histories.add(timeline);
            fleetIncidents.add(new VehicleIncidents(timeline, patterns, seed, index, epoch.toEpochMilli()));
            SplittableRandom battery = new SplittableRandom(SeedMixer.mix(seed ^ BATTERY_SALT, index));
            batteryAtEpoch[index] =
                    MINIMUM_BATTERY_AT_EPOCH + battery.nextDouble() * (FULL_BATTERY - MINIMUM_BATTERY_AT_EPOCH);
            drainPerHour[index] =
                    MINIMUM_DRAIN_PER_HOUR + battery.nextDouble() * (MAXIMUM_DRAIN_PER_HOUR - MINIMUM_DRAIN_PER_HOUR);
        }
        this.vehicles = List.copyOf(fleet);
        this.vehiclesById = Map.copyOf(byId);
        this.timelines = List.copyOf(histories);
        this.incidents = List.copyOf(fleetIncidents);
    }

    /**
     * The epoch a simulator or planning API uses when it starts at a time: the start of that UTC day. Two components
     * started on the same UTC day with the same seed, fleet size and delivery stop duration drive and serve the same
     * routes.
     */
    public static Instant startOfDay(Instant time) {
        return time.truncatedTo(ChronoUnit.DAYS);
    }

    public List<Vehicle> vehicles() {
        return vehicles;
    }

    public Optional<Vehicle> vehicle(String vehicleId) {
        return Optional.ofNullable(vehiclesById.get(requireNonNull(vehicleId, "vehicleId is null")));
    }

    public Instant epoch() {
        return epoch;
    }

    public FleetPatterns patterns() {
        return patterns;
    }

    /**
     * The fix the vehicle's device takes at a time: the exact state (detours included) rounded as a device would
     * (coordinates to 6 decimals, about 0.1 m; speed, heading, altitude and battery level to 0.1), with a reproducible
     * satellite count and accuracy estimate, and the battery level when the device reports it. GPS glitches and garage
     * outages are the device's business: see {@link #device}.
     */
    public Position position(Vehicle vehicle, Instant time) {
        VehicleMotion state = state(vehicle, time);
        long millis = time.toEpochMilli();
        int satellites = MINIMUM_SATELLITES
                + (int) (SeedMixer.unit(seed ^ SATELLITE_SALT, vehicle.index(), millis)
                        * (MAXIMUM_SATELLITES - MINIMUM_SATELLITES + 1));
        double heading = round(state.headingDegrees(), 1);
        return new Position(
                vehicle.vehicleId(),
                Instant.ofEpochMilli(millis),
                round(state.location().latitude(), 6),
                round(state.location().longitude(), 6),
                round(state.speedKmh(), 1),
                heading >= 360 ? 0 : heading,
                round(state.elevationMeters(), 1),
                accuracyMeters(vehicle, millis, satellites),
                satellites,
                batteryLevel(vehicle, millis));
    }

    /** The exact state of a vehicle at a time, before the device rounds it; off the planned path while it deviates. */
    public VehicleMotion state(Vehicle vehicle, Instant time) {
        VehicleTimeline timeline = timeline(vehicle, time);
        long millis = time.toEpochMilli();
        VehicleMotion planned = timeline.stateAt(millis);
        List<Deviation> deviations = incidents.get(vehicle.index()).deviationsAt(millis);
        if (deviations.isEmpty()) {
            return planned;
        }
        long later = millis + MOTION_SAMPLE_MILLIS;
        GeoPoint here = displaced(planned.location(), deviations, millis);
        GeoPoint next = displaced(timeline.stateAt(later).location(), deviations, later);
        double meters = here.distanceMeters(next);
        double heading = meters > 0 ? here.bearingDegrees(next) : planned.headingDegrees();
        return new VehicleMotion(here, planned.elevationMeters(), meters / MOTION_SAMPLE_MILLIS * 3600, heading);
    }

    /** The route the vehicle follows at a time: its plan, which detours do not change. */
    public Route route(Vehicle vehicle, Instant time) {
        return timeline(vehicle, time).routeAt(time.toEpochMilli());
    }

    /** The detours under way at a time, usually none. */
    public List<Deviation> deviations(Vehicle vehicle, Instant time) {
        timeline(vehicle, time);
        return incidents.get(vehicle.index()).deviationsAt(time.toEpochMilli());
    }

    /** The garage outage the vehicle's device is in at a time, if any. */
    public Optional<GarageOutage> garageOutage(Vehicle vehicle, Instant time) {
        timeline(vehicle, time);
        return outageAt(vehicle, time.toEpochMilli());
    }

    /**
     * Adds a detour to the seeded ones, displaced to the right of the vehicle's course at the start (the model works in
     * whole milliseconds). It adds to any other detour under way.
     *
     * @param offsetMeters how far off the path the vehicle drives in the middle third, up to 2 km
     */
    public Deviation scheduleDeviation(Vehicle vehicle, Instant start, Duration duration, double offsetMeters) {
        requireNonNull(duration, "duration is null");
        if (!(offsetMeters > 0 && offsetMeters <= 2_000)) {
            throw new IllegalArgumentException(
                    "A detour goes more than 0 and at most 2000 m off the path, got " + offsetMeters);
        }
        Instant begin = start.truncatedTo(ChronoUnit.MILLIS);
        double heading = timeline(vehicle, begin).stateAt(begin.toEpochMilli()).headingDegrees();
        Deviation deviation = new Deviation(begin, begin.plus(duration), heading + 90, offsetMeters);
        incidents.get(vehicle.index()).schedule(deviation);
        return deviation;
    }

    /**
     * Adds a garage outage to the seeded ones, from the start's millisecond. The device buffers a fix every {@link
     * FleetPatterns#garageFixInterval()} until the end and sends them all at its first fix after it.
     */
    public GarageOutage scheduleGarageOutage(Vehicle vehicle, Instant start, Duration duration) {
        requireNonNull(duration, "duration is null");
        timeline(vehicle, start);
        if (duration.isNegative()
                || duration.isZero()
                || FleetPatterns.bufferedFixes(duration, patterns.garageFixInterval())
                        > FleetPatterns.MAXIMUM_BUFFERED_FIXES) {
            throw new IllegalArgumentException("A garage outage lasts more than 0 and buffers at most "
                    + FleetPatterns.MAXIMUM_BUFFERED_FIXES + " fixes (one every " + patterns.garageFixInterval()
                    + "), got " + duration);
        }
        Instant begin = start.truncatedTo(ChronoUnit.MILLIS);
        GarageOutage outage = new GarageOutage(begin, begin.plus(duration));
        incidents.get(vehicle.index()).schedule(outage);
        return outage;
    }

    /**
     * The vehicle's device, switched on at a time: it turns the fixes it takes into the messages it sends (see
     * {@link Device#fix}). Fixes taken before it was switched on are never sent.
     */
    public Device device(Vehicle vehicle, Instant poweredOn) {
        timeline(vehicle, poweredOn);
        return new Device(this, vehicle, poweredOn);
    }

    Optional<GarageOutage> outageAt(Vehicle vehicle, long millis) {
        return incidents.get(vehicle.index()).outageAt(millis);
    }

    List<GarageOutage> outagesEndingIn(Vehicle vehicle, long fromMillis, long toMillis) {
        return incidents.get(vehicle.index()).outagesEndingIn(fromMillis, toMillis);
    }

    /**
     * The fix the device reports at {@code millis}: {@link #position}, unless a GPS glitch happened since its previous
     * fix; then the fix lands tens of kilometres away (inside the region, so only the jump is implausible), computed
     * from {@value #GLITCH_SATELLITES} satellites.
     */
    Position liveFix(Vehicle vehicle, long previousFixMillis, long millis) {
        Position truth = position(vehicle, Instant.ofEpochMilli(millis));
        return incidents
                .get(vehicle.index())
                .glitchIn(previousFixMillis, millis)
                .flatMap(glitch -> glitched(vehicle, truth, glitch))
                .orElse(truth);
    }

    /**
     * The fix moved by the glitch's distance, in its direction or the first of seven others 45 degrees apart that
     * lands well inside the region; at the minimum glitch distance when none does. Empty only for a region narrower
     * than twice the minimum glitch distance, which mainland Iberia is not.
     */
    private Optional<Position> glitched(Vehicle vehicle, Position truth, Glitch glitch) {
        GeoPoint location = new GeoPoint(truth.latitude(), truth.longitude());
        for (double distance : new double[] {glitch.distanceMeters(), VehicleIncidents.MINIMUM_GLITCH_METERS}) {
            for (int turn = 0; turn < 8; turn++) {
                GeoPoint jumped = location.offset(glitch.bearingDegrees() + 45 * turn, distance);
                if (wellInsideRegion(jumped)) {
                    long millis = truth.eventTime().toEpochMilli();
                    return Optional.of(new Position(
                            truth.vehicleId(),
                            truth.eventTime(),
                            round(jumped.latitude(), 6),
                            round(jumped.longitude(), 6),
                            truth.speedKmh(),
                            truth.headingDeg(),
                            truth.altitudeM(),
                            accuracyMeters(vehicle, millis, GLITCH_SATELLITES),
                            GLITCH_SATELLITES,
                            truth.batteryLevel()));
                }
            }
        }
        return Optional.empty();
    }

    private static boolean wellInsideRegion(GeoPoint point) {
        if (!Regions.IBERIA_MAINLAND.contains(point)) {
            return false;
        }
        for (int bearing = 0; bearing < 360; bearing += 90) {
            if (!Regions.IBERIA_MAINLAND.contains(point.offset(bearing, GLITCH_INLAND_MARGIN_METERS))) {
                return false;
            }
        }
        return true;
    }

    /** Fewer satellites, worse precision: a horizontal accuracy of roughly 3.5 to 8.5 m with 6 to 14 satellites. */
    private double accuracyMeters(Vehicle vehicle, long millis, int satellites) {
        return round(1.5 + 30.0 / satellites + 2 * SeedMixer.unit(seed ^ ACCURACY_SALT, vehicle.index(), millis), 1);
    }

    /**
     * A battery that drains slowly at a rate of its own (0.5 to 2 % per hour) from a level of its own at the epoch (40
     * to 100 %), and is charged back to full when it reaches {@value #EMPTY_BATTERY} %. Null for devices that do not
     * report it.
     */
    private Double batteryLevel(Vehicle vehicle, long millis) {
        if (!vehicle.reportsBattery()) {
            return null;
        }
        double hours = (millis - epoch.toEpochMilli()) / MILLIS_PER_HOUR;
        double drained = FULL_BATTERY - batteryAtEpoch[vehicle.index()] + drainPerHour[vehicle.index()] * hours;
        return round(FULL_BATTERY - drained % (FULL_BATTERY - EMPTY_BATTERY), 1);
    }

    private static GeoPoint displaced(GeoPoint planned, List<Deviation> deviations, long millis) {
        GeoPoint location = planned;
        for (Deviation deviation : deviations) {
            double meters = deviation.offsetMetersAt(millis);
            if (meters > 0) {
                location = location.offset(deviation.bearingDegrees(), meters);
            }
        }
        return location;
    }

    private VehicleTimeline timeline(Vehicle vehicle, Instant time) {
        requireNonNull(vehicle, "vehicle is null");
        requireNonNull(time, "time is null");
        if (vehicle.index() >= vehicles.size() || !vehicles.get(vehicle.index()).equals(vehicle)) {
            throw new IllegalArgumentException("Vehicle " + vehicle.vehicleId() + " is not part of this fleet");
        }
        if (time.isBefore(epoch)) {
            throw new IllegalArgumentException("The fleet model starts at " + epoch + ", asked for " + time);
        }
        return timelines.get(vehicle.index());
    }

    /** Exactly round(share x count) devices, picked by a seeded shuffle. */
    private static boolean[] chosenDevices(long seed, int vehicleCount, double share) {
        int[] order = new int[vehicleCount];
        for (int i = 0; i < vehicleCount; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(SeedMixer.mix(seed));
        for (int i = vehicleCount - 1; i > 0; i--) {
            int other = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[other];
            order[other] = swap;
        }
        boolean[] chosen = new boolean[vehicleCount];
        long count = Math.round(share * vehicleCount);
        for (int i = 0; i < count; i++) {
            chosen[order[i]] = true;
        }
        return chosen;
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
