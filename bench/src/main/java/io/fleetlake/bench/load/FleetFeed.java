package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Realistic positions of the simulated fleet ({@link FleetModel}: real roads, stops, detours, the devices' Avro/JSON
 * mix and firmware versions), built from the same simulator settings as the stack's planning API so that the pipeline
 * enriches them with the vehicles' real routes. The model is pure: the same vehicle asked at increasing times drives
 * on consistently, so fixes of several phases never look like GPS jumps to the pipeline.
 */
public final class FleetFeed {
    private final FleetModel model;

    public FleetFeed(FleetModel model) {
        this.model = requireNonNull(model, "model is null");
    }

    /** The fleet the simulator with this configuration drives, with the given epoch (the model answers from there). */
    public static FleetFeed of(FleetSimulatorConfig simulator, Instant epoch) {
        return new FleetFeed(new FleetModel(
                simulator.seed(), simulator.vehicles(), simulator.jsonShare(), simulator.patterns(), epoch));
    }

    public List<Vehicle> vehicles() {
        return model.vehicles();
    }

    public Fix fix(Vehicle vehicle, Instant time) {
        return new Fix(vehicle, model.position(vehicle, time));
    }

    /** The fix of a vehicle at a time, under another vehicle id (a vehicle of its own, for example for history). */
    public Fix renamedFix(Vehicle vehicle, String vehicleId, Instant time) {
        Position position = model.position(vehicle, time);
        return new Fix(
                vehicle,
                new Position(
                        vehicleId,
                        position.eventTime(),
                        position.latitude(),
                        position.longitude(),
                        position.speedKmh(),
                        position.headingDeg(),
                        position.altitudeM(),
                        position.accuracyM(),
                        position.satellites(),
                        position.batteryLevel()));
    }

    /**
     * {@code count} fixes in event-time order: every vehicle once per {@code fixInterval}, the vehicles staggered evenly
     * within the interval (vehicle {@code v} of {@code V} at {@code start + round × interval + v × interval / V}), as
     * a fleet reporting on its own would.
     */
    public Iterator<Fix> rounds(Instant start, Duration fixInterval, long count) {
        requireNonNull(start, "start is null");
        requireNonNull(fixInterval, "fixInterval is null");
        List<Vehicle> vehicles = model.vehicles();
        long intervalMillis = fixInterval.toMillis();
        return new Iterator<>() {
            private long index;

            @Override
            public boolean hasNext() {
                return index < count;
            }

            @Override
            public Fix next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                long round = index / vehicles.size();
                int vehicleIndex = (int) (index % vehicles.size());
                index++;
                long offset = round * intervalMillis + vehicleIndex * intervalMillis / vehicles.size();
                return fix(vehicles.get(vehicleIndex), start.plusMillis(offset));
            }
        };
    }
}
