package io.fleetlake.flink.enrichment;

import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import java.time.Instant;
import java.util.List;

/**
 * A route in Madrid for tests: 0.01° north from {@link #START} (about 1,112 m), then 0.01° east (about 847 m), with a
 * stop halfway up the first leg, one halfway along the second and one at the end.
 */
public final class TestRoutes {
    public static final String VEHICLE = "VH-0001";
    public static final RoutePoint START = new RoutePoint(40.40, -3.70);
    public static final RoutePoint CORNER = new RoutePoint(40.41, -3.70);
    public static final RoutePoint END = new RoutePoint(40.41, -3.69);
    public static final PlannedStop FIRST_STOP = new PlannedStop("S-1", "Calle A", 40.405, -3.70);
    public static final PlannedStop SECOND_STOP = new PlannedStop("S-2", "Calle B", 40.41, -3.695);
    public static final PlannedStop LAST_STOP = new PlannedStop("S-3", "Calle C", 40.41, -3.69);
    public static final Instant UPDATED_AT = Instant.parse("2026-11-29T06:00:00Z");

    private TestRoutes() {}

    public static PlannedRoute route() {
        return route("R-1", VEHICLE);
    }

    public static PlannedRoute route(String routeId, String vehicleId) {
        return new PlannedRoute(
                routeId,
                vehicleId,
                UPDATED_AT,
                List.of(FIRST_STOP, SECOND_STOP, LAST_STOP),
                List.of(START, CORNER, END));
    }

    /** Great-circle metres between two points. */
    public static double metres(double fromLatitude, double fromLongitude, double toLatitude, double toLongitude) {
        return GreatCircle.distanceKm(fromLatitude, fromLongitude, toLatitude, toLongitude) * 1000;
    }

    /** Metres along the first leg from {@link #START} to its point at {@code latitude}. */
    public static double firstLegMetres(double latitude) {
        return metres(START.latitude(), START.longitude(), latitude, START.longitude());
    }

    /** Degrees of longitude that make {@code metres} east at {@code latitude}. */
    public static double eastDegrees(double metres, double latitude) {
        return metres / (GreatCircle.KILOMETRES_PER_DEGREE * 1000 * Math.cos(Math.toRadians(latitude)));
    }
}
