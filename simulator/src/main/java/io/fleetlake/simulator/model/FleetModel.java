package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded fleet driving plausible routes between the cities of mainland Spain and Portugal. Pure logic: every answer
 * is a function of the seed, the fleet size, the JSON share, the epoch and the time asked for. Two models built with
 * the same arguments report the same positions for the same times, in whatever order they are asked.
 *
 * <p>Each vehicle starts at a home city some time (up to {@value #MAXIMUM_HEAD_START_HOURS} hours) before the epoch,
 * so that at the epoch the fleet is spread over its first trips, and then drives trip after trip: one to three legs
 * between neighbouring cities with stops, urban speeds near city centres, road speeds in between, traffic halts and
 * rest breaks. Thread-safe.
 */
public final class FleetModel {
    private static final long MAXIMUM_HEAD_START_HOURS = 4;
    private static final long JSON_DEVICE_SALT = 0x4A534F4E_44455649L;
    private static final long SATELLITE_SALT = 0x53415445_4C4C4954L;
    private static final long ACCURACY_SALT = 0x41434355_52414359L;
    private static final int MINIMUM_SATELLITES = 6;
    private static final int MAXIMUM_SATELLITES = 14;

    private final long seed;
    private final Instant epoch;
    private final List<Vehicle> vehicles;
    private final List<VehicleTimeline> timelines;

    /** A fleet on the {@link RoadNetwork#iberia() Iberian road network}. */
    public FleetModel(long seed, int vehicleCount, double jsonShare, Instant epoch) {
        this(RoadNetwork.iberia(), seed, vehicleCount, jsonShare, epoch);
    }

    /**
     * @param network where the fleet drives
     * @param seed makes the fleet reproducible
     * @param vehicleCount number of vehicles, {@code VH-0001} onwards
     * @param jsonShare share of devices that send JSON instead of Avro, 0 to 1; rounded to a whole number of devices
     * @param epoch the earliest time the model answers for
     */
    public FleetModel(RoadNetwork network, long seed, int vehicleCount, double jsonShare, Instant epoch) {
        requireNonNull(network, "network is null");
        this.epoch = requireNonNull(epoch, "epoch is null");
        if (vehicleCount < 1) {
            throw new IllegalArgumentException("A fleet needs at least one vehicle, got " + vehicleCount);
        }
        if (!(jsonShare >= 0 && jsonShare <= 1)) {
            throw new IllegalArgumentException("The JSON share must be between 0 and 1, got " + jsonShare);
        }
        this.seed = seed;
        boolean[] json = jsonDevices(seed, vehicleCount, jsonShare);
        TripPlanner planner = new TripPlanner(network);
        List<Vehicle> fleet = new ArrayList<>(vehicleCount);
        List<VehicleTimeline> histories = new ArrayList<>(vehicleCount);
        long headStartMillis = Duration.ofHours(MAXIMUM_HEAD_START_HOURS).toMillis();
        for (int index = 0; index < vehicleCount; index++) {
            Vehicle vehicle =
                    new Vehicle(index, Vehicle.idOf(index), json[index] ? PayloadFormat.JSON : PayloadFormat.AVRO);
            SplittableRandom random = new SplittableRandom(SeedMixer.mix(seed, index));
            City home = network.cities().get(random.nextInt(network.cities().size()));
            long start = epoch.toEpochMilli() - random.nextLong(headStartMillis + 1);
            fleet.add(vehicle);
            histories.add(new VehicleTimeline(vehicle, planner, home, start, random));
        }
        this.vehicles = List.copyOf(fleet);
        this.timelines = List.copyOf(histories);
    }

    public List<Vehicle> vehicles() {
        return vehicles;
    }

    public Instant epoch() {
        return epoch;
    }

    /**
     * The fix the vehicle's device reports at a time: the exact state rounded as a device would (coordinates to 6
     * decimals, about 0.1 m; speed, heading and altitude to 0.1), with a reproducible satellite count and accuracy
     * estimate.
     */
    public Position position(Vehicle vehicle, Instant time) {
        VehicleState state = state(vehicle, time);
        long millis = time.toEpochMilli();
        int satellites = MINIMUM_SATELLITES
                + (int) (SeedMixer.unit(seed ^ SATELLITE_SALT, vehicle.index(), millis)
                        * (MAXIMUM_SATELLITES - MINIMUM_SATELLITES + 1));
        // Fewer satellites, worse precision: a horizontal accuracy of roughly 3.5 to 8.5 m.
        double accuracyMeters =
                1.5 + 30.0 / satellites + 2 * SeedMixer.unit(seed ^ ACCURACY_SALT, vehicle.index(), millis);
        double heading = round(state.headingDegrees(), 1);
        return new Position(
                vehicle.vehicleId(),
                Instant.ofEpochMilli(millis),
                round(state.location().latitude(), 6),
                round(state.location().longitude(), 6),
                round(state.speedKmh(), 1),
                heading >= 360 ? 0 : heading,
                round(state.elevationMeters(), 1),
                round(accuracyMeters, 1),
                satellites,
                // The simulated devices run firmware 1.x, which does not report the battery.
                null);
    }

    /** The exact state of a vehicle at a time, before the device rounds it. */
    public VehicleState state(Vehicle vehicle, Instant time) {
        return timeline(vehicle, time).stateAt(time.toEpochMilli());
    }

    /** The route the vehicle follows at a time. */
    public Route route(Vehicle vehicle, Instant time) {
        return timeline(vehicle, time).routeAt(time.toEpochMilli());
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

    /** Exactly round(share x count) devices speak JSON, picked by a seeded shuffle. */
    private static boolean[] jsonDevices(long seed, int vehicleCount, double jsonShare) {
        int[] order = new int[vehicleCount];
        for (int i = 0; i < vehicleCount; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(SeedMixer.mix(seed ^ JSON_DEVICE_SALT));
        for (int i = vehicleCount - 1; i > 0; i--) {
            int other = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[other];
            order[other] = swap;
        }
        boolean[] json = new boolean[vehicleCount];
        long jsonCount = Math.round(jsonShare * vehicleCount);
        for (int i = 0; i < jsonCount; i++) {
            json[order[i]] = true;
        }
        return json;
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
