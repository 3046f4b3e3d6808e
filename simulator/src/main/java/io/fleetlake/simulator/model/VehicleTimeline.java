package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The trips of one vehicle, planned one after the other as time is asked for. Trips are generated in order from the
 * vehicle's own generator, so the answer for a time does not depend on which times were asked before. Only the last
 * {@value #RETAINED_PAST_TRIPS} trips before the latest one asked for are kept; older times can no longer be answered.
 * Thread-safe.
 *
 * <p>Route ids are {@code <vehicle>-<yyyyMMdd>-<n>}: the n-th trip of the vehicle that departs on that UTC day.
 */
final class VehicleTimeline {
    private static final int RETAINED_PAST_TRIPS = 8;

    private final Vehicle vehicle;
    private final TripPlanner planner;
    private final SplittableRandom random;
    private final long startMillis;
    private final List<Trip> trips = new ArrayList<>();
    private City location;
    private Optional<City> cameFrom = Optional.empty();
    private LocalDate departureDay;
    private int departuresThatDay;

    VehicleTimeline(Vehicle vehicle, TripPlanner planner, City home, long startMillis, SplittableRandom random) {
        this.vehicle = requireNonNull(vehicle, "vehicle is null");
        this.planner = requireNonNull(planner, "planner is null");
        this.location = requireNonNull(home, "home is null");
        this.random = requireNonNull(random, "random is null");
        this.startMillis = startMillis;
    }

    synchronized VehicleMotion stateAt(long timeMillis) {
        return tripAt(timeMillis).stateAt(timeMillis);
    }

    synchronized Route routeAt(long timeMillis) {
        return tripAt(timeMillis).route();
    }

    /** See {@link Trip#drivesSteadily}; false when the times fall in different trips. */
    synchronized boolean drivesSteadily(long fromMillis, long toMillis, double maximumTurnDegrees) {
        return tripAt(fromMillis).drivesSteadily(fromMillis, toMillis, maximumTurnDegrees);
    }

    private Trip tripAt(long timeMillis) {
        if (timeMillis < startMillis) {
            throw new IllegalArgumentException("Vehicle " + vehicle.vehicleId() + " has no history before "
                    + Instant.ofEpochMilli(startMillis) + ", asked for " + Instant.ofEpochMilli(timeMillis));
        }
        while (trips.isEmpty() || trips.get(trips.size() - 1).endMillis() <= timeMillis) {
            planNextTrip();
        }
        if (timeMillis < trips.get(0).startMillis()) {
            throw new IllegalArgumentException("Vehicle " + vehicle.vehicleId() + " no longer keeps its trips before "
                    + Instant.ofEpochMilli(trips.get(0).startMillis()) + ", asked for "
                    + Instant.ofEpochMilli(timeMillis));
        }
        int index = trips.size() - 1;
        while (trips.get(index).startMillis() > timeMillis) {
            index--;
        }
        if (index > RETAINED_PAST_TRIPS) {
            trips.subList(0, index - RETAINED_PAST_TRIPS).clear();
            index = RETAINED_PAST_TRIPS;
        }
        return trips.get(index);
    }

    private void planNextTrip() {
        long departure;
        double heading;
        if (trips.isEmpty()) {
            departure = startMillis;
            heading = 0;
        } else {
            Trip last = trips.get(trips.size() - 1);
            departure = last.endMillis();
            heading = last.stateAt(departure).headingDegrees();
        }
        LocalDate day = Instant.ofEpochMilli(departure).atOffset(ZoneOffset.UTC).toLocalDate();
        if (!day.equals(departureDay)) {
            departureDay = day;
            departuresThatDay = 0;
        }
        departuresThatDay++;
        String routeId =
                vehicle.vehicleId() + "-" + DateTimeFormatter.BASIC_ISO_DATE.format(day) + "-" + departuresThatDay;
        Trip trip = planner.plan(routeId, vehicle.vehicleId(), location, cameFrom, departure, heading, random);
        cameFrom = Optional.of(trip.lastDeparture());
        location = trip.destination();
        trips.add(trip);
    }
}
