package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.planning.PlannedRoute;
import java.time.Instant;
import java.util.List;

/**
 * One successful answer of the planning API's {@code GET /v1/routes}: the current route of every vehicle that has one.
 * A failed fetch produces no poll.
 *
 * @param fetchedAt when the answer arrived (wall clock)
 * @param routes every vehicle's current route
 */
public record RoutePoll(Instant fetchedAt, List<PlannedRoute> routes) {
    public RoutePoll {
        requireNonNull(fetchedAt, "fetchedAt is null");
        routes = List.copyOf(requireNonNull(routes, "routes is null"));
    }
}
