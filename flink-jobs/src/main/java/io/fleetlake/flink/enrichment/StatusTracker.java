package io.fleetlake.flink.enrichment;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.Position;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.model.planning.PlannedStop;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What one vehicle's previous fixes established, kept in keyed state between fixes: its progress along the route and
 * the runs of slow and of off-route fixes. {@link #observe} judges a fix and returns the tracker to keep.
 *
 * <p>The rules, with the thresholds of {@link EnrichmentConfig}:
 *
 * <ul>
 *   <li><b>Next stop</b>: the first stop not reached yet. A fix within {@code arrival-radius-m} (straight line) of the
 *       next stop reaches it, and the one after it becomes next (several at once when they are close together). Stops
 *       are reached in delivery order: reaching a later stop first does not skip the next one. Progress starts over
 *       when the vehicle gets another route (another route id).
 *   <li><b>Off the route</b>: farther than {@code deviation-threshold-m} from the route path; {@code DEVIATING} from
 *       the {@code deviation-min-fixes}-th consecutive off-route fix on, so a single GPS outlier does not count.
 *   <li><b>Distance to the next stop</b>: along the route path ({@code ALONG_ROUTE}) from the fix's place on the
 *       remaining route (the path from the last reached stop on) to the stop's place, while the vehicle is not
 *       deviating; straight line ({@code STRAIGHT_LINE}) from the fix to the stop while it deviates, when its place on
 *       the path means nothing.
 *   <li><b>Status</b>: {@code STOPPED} when this fix and every fix since the run began are below
 *       {@code stop-speed-kmh} and the run has lasted at least {@code stop-min-duration} of event time; else
 *       {@code DEVIATING} as above; else {@code ON_ROUTE}, or {@code NO_ROUTE} without a route.
 * </ul>
 *
 * <p>A fix with an event time before the newest one observed (a late arrival) is enriched against the tracker but does
 * not change it, so that it cannot undo progress the later fixes made; like every rule here it then gives the same
 * result on a replay.
 *
 * @param routeId the route the progress refers to; null before the first fix with a route
 * @param nextStopIndex index of the next stop in the route's stops; equal to their count when every stop is reached
 * @param slowSince event time of the first fix of the current run of fixes below the stop speed; null when the last
 *     fix was not slow
 * @param offRouteFixes consecutive off-route fixes up to the last one, counted up to {@code deviation-min-fixes}
 * @param lastEventTime the newest event time observed; null before the first fix
 */
public record StatusTracker(
        String routeId, int nextStopIndex, Instant slowSince, int offRouteFixes, Instant lastEventTime) {
    /** A vehicle the tracker has not seen. */
    public static final StatusTracker INITIAL = new StatusTracker(null, 0, null, 0, null);

    public StatusTracker {
        if (nextStopIndex < 0 || offRouteFixes < 0) {
            throw new IllegalArgumentException("Counts cannot be negative");
        }
    }

    /**
     * Judges a fix.
     *
     * @param fix the vehicle's fix
     * @param route the vehicle's current route, or null when it has none
     * @param stale whether the route is stale (the planning API could not be reached); ignored without a route
     * @return the fix's enrichment and the tracker to keep for the next fix
     */
    public Observation observe(Position fix, RouteGeometry route, boolean stale, EnrichmentConfig config) {
        requireNonNull(fix, "fix is null");
        requireNonNull(config, "config is null");
        boolean late = lastEventTime != null && fix.eventTime().isBefore(lastEventTime);
        Instant newestEventTime = late ? lastEventTime : fix.eventTime();

        boolean slow = fix.speedKmh() < config.stopSpeedKmh();
        Instant slowRunStart = slow ? (slowSince == null ? fix.eventTime() : slowSince) : null;
        boolean stopped =
                slow && Duration.between(slowRunStart, fix.eventTime()).compareTo(config.stopMinDuration()) >= 0;

        if (route == null) {
            StatusTracker next = new StatusTracker(null, 0, slowRunStart, 0, newestEventTime);
            Enrichment enrichment = Enrichment.withoutRoute(stopped ? VehicleStatus.STOPPED : VehicleStatus.NO_ROUTE);
            return new Observation(late ? this : next, enrichment);
        }

        String currentRouteId = route.route().routeId();
        boolean sameRoute = currentRouteId.equals(routeId);
        List<PlannedStop> stops = route.route().stops();
        int nextStop = sameRoute ? Math.min(nextStopIndex, stops.size()) : 0;
        while (nextStop < stops.size() && distanceM(fix, stops.get(nextStop)) <= config.arrivalRadiusM()) {
            nextStop++;
        }

        RouteGeometry.Projection place = nextStop == 0
                ? route.project(fix.latitude(), fix.longitude())
                : route.projectAfterStop(fix.latitude(), fix.longitude(), nextStop - 1);
        boolean offRoute = place.distanceFromPathM() > config.deviationThresholdM();
        int offRouteRun = offRoute ? Math.min((sameRoute ? offRouteFixes : 0) + 1, config.deviationMinFixes()) : 0;
        boolean deviating = offRouteRun >= config.deviationMinFixes();

        VehicleStatus status;
        if (stopped) {
            status = VehicleStatus.STOPPED;
        } else if (deviating) {
            status = VehicleStatus.DEVIATING;
        } else {
            status = VehicleStatus.ON_ROUTE;
        }
        String nextStopId = null;
        Double distanceToNextStopM = null;
        DistanceMethod method = null;
        if (nextStop < stops.size()) {
            PlannedStop stop = stops.get(nextStop);
            nextStopId = stop.stopId();
            if (deviating) {
                distanceToNextStopM = distanceM(fix, stop);
                method = DistanceMethod.STRAIGHT_LINE;
            } else {
                // A vehicle that drove past the stop without reaching it has to come back: the distance is positive.
                distanceToNextStopM = Math.abs(route.stopAlongPathM()[nextStop] - place.alongPathM());
                method = DistanceMethod.ALONG_ROUTE;
            }
        }
        Enrichment enrichment = new Enrichment(
                currentRouteId, nextStopId, distanceToNextStopM, method, place.distanceFromPathM(), status, stale);
        StatusTracker next = new StatusTracker(currentRouteId, nextStop, slowRunStart, offRouteRun, newestEventTime);
        return new Observation(late ? this : next, enrichment);
    }

    private static double distanceM(Position fix, PlannedStop stop) {
        return GreatCircle.distanceKm(fix.latitude(), fix.longitude(), stop.latitude(), stop.longitude()) * 1000;
    }

    /**
     * The result of judging one fix.
     *
     * @param tracker the tracker to keep; the same instance when the fix changed nothing (a late arrival)
     * @param enrichment the fix's enrichment
     */
    public record Observation(StatusTracker tracker, Enrichment enrichment) {
        public Observation {
            requireNonNull(tracker, "tracker is null");
            requireNonNull(enrichment, "enrichment is null");
        }
    }
}
