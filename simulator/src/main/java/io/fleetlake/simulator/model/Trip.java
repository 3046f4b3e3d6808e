package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import java.util.List;

/**
 * A route as driven: the timetable of movements, without gaps, from departure until the vehicle is ready to leave on
 * its next trip.
 *
 * @param route the plan
 * @param cities the cities of the route's stops, in order
 * @param movements the timetable
 */
record Trip(Route route, List<City> cities, List<Movement> movements) {
    Trip {
        requireNonNull(route, "route is null");
        requireNonNull(cities, "cities is null");
        requireNonNull(movements, "movements is null");
        cities = List.copyOf(cities);
        movements = List.copyOf(movements);
        if (cities.size() != route.stops().size()) {
            throw new IllegalArgumentException("Route " + route.routeId() + " has "
                    + route.stops().size() + " stops but " + cities.size() + " cities");
        }
        if (movements.isEmpty()) {
            throw new IllegalArgumentException("Trip of route " + route.routeId() + " has no movements");
        }
        for (int i = 1; i < movements.size(); i++) {
            if (movements.get(i).startMillis() != movements.get(i - 1).endMillis()) {
                throw new IllegalArgumentException("Movements of route " + route.routeId() + " leave a gap at "
                        + movements.get(i - 1).endMillis());
            }
        }
    }

    City destination() {
        return cities.get(cities.size() - 1);
    }

    /** The city the vehicle left on the last leg. */
    City lastDeparture() {
        return cities.get(cities.size() - 2);
    }

    long startMillis() {
        return movements.get(0).startMillis();
    }

    long endMillis() {
        return movements.get(movements.size() - 1).endMillis();
    }

    VehicleMotion stateAt(long timeMillis) {
        return movements.get(movementIndex(timeMillis)).stateAt(timeMillis);
    }

    /**
     * Whether the vehicle drives without a halt from one time to another, both within this trip, never turning more
     * than {@code maximumTurnDegrees} away from its course at the start.
     */
    boolean drivesSteadily(long fromMillis, long toMillis, double maximumTurnDegrees) {
        if (fromMillis < startMillis() || toMillis > endMillis()) {
            return false;
        }
        int index = movementIndex(fromMillis);
        if (!(movements.get(index) instanceof Movement.Drive first)) {
            return false;
        }
        for (; index < movements.size() && movements.get(index).startMillis() < toMillis; index++) {
            if (!(movements.get(index) instanceof Movement.Drive drive)
                    || GeoPoint.headingDifference(drive.headingDegrees(), first.headingDegrees())
                            > maximumTurnDegrees) {
                return false;
            }
        }
        return true;
    }

    /** The index of the movement under way at a time: the last one that starts at or before it. */
    private int movementIndex(long timeMillis) {
        int low = 0;
        int high = movements.size() - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (movements.get(middle).startMillis() <= timeMillis) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }
}
