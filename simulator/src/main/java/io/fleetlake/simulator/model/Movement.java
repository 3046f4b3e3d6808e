package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;

/** One piece of a trip's timetable: driving one straight segment at constant speed, or standing still. */
sealed interface Movement permits Movement.Drive, Movement.Halt {
    /** Epoch milliseconds at which the movement starts (inclusive). */
    long startMillis();

    /** Epoch milliseconds at which the movement ends (exclusive). */
    long endMillis();

    /** The vehicle's state at a time within {@code [startMillis, endMillis]}. */
    VehicleMotion stateAt(long timeMillis);

    /** Driving in a straight great-circle line from one point to the next. */
    record Drive(
            GeoPoint from,
            GeoPoint to,
            double fromElevationMeters,
            double toElevationMeters,
            double speedKmh,
            long startMillis,
            long endMillis)
            implements Movement {
        public Drive {
            requireNonNull(from, "from is null");
            requireNonNull(to, "to is null");
            if (endMillis <= startMillis) {
                throw new IllegalArgumentException("A drive must take time: " + startMillis + " to " + endMillis);
            }
        }

        @Override
        public VehicleMotion stateAt(long timeMillis) {
            double fraction = Math.min(1, Math.max(0, (double) (timeMillis - startMillis) / (endMillis - startMillis)));
            return new VehicleMotion(
                    from.interpolate(to, fraction),
                    fromElevationMeters + (toElevationMeters - fromElevationMeters) * fraction,
                    speedKmh,
                    headingDegrees());
        }

        double headingDegrees() {
            return from.bearingDegrees(to);
        }
    }

    /** Standing still: at a traffic light, on a break, or at a stop. */
    record Halt(GeoPoint location, double elevationMeters, double headingDegrees, long startMillis, long endMillis)
            implements Movement {
        public Halt {
            requireNonNull(location, "location is null");
            if (endMillis <= startMillis) {
                throw new IllegalArgumentException("A halt must take time: " + startMillis + " to " + endMillis);
            }
        }

        @Override
        public VehicleMotion stateAt(long timeMillis) {
            return new VehicleMotion(location, elevationMeters, 0, headingDegrees);
        }
    }
}
