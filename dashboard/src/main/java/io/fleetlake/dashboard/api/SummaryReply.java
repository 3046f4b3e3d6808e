package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.pipeline.PipelineCounters;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/summary}.
 *
 * @param asOf server time of the read
 * @param totalVehicles vehicles with a current state
 * @param countsByStatus vehicles per status: every {@link io.fleetlake.model.VehicleStatus} (0 when none), then
 *     {@code UNKNOWN} for vehicles without a status and any other stored name, when present
 * @param staleAfterSeconds the stale threshold
 * @param staleVehicleIds vehicles whose newest fix is older than the threshold, by id
 * @param newestEventTime the newest fix of the fleet, or null without vehicles
 * @param newestUpdatedAt the newest write of the pipeline, or null without vehicles
 * @param rejectionRate recordsRejected / recordsRead of the running pipeline, or null when unavailable
 * @param rejectionRateUnavailable why the rate is null, or null when it is not
 * @param pipeline the counters the rate comes from, or null when unavailable
 */
record SummaryReply(
        Instant asOf,
        int totalVehicles,
        Map<String, Integer> countsByStatus,
        long staleAfterSeconds,
        List<String> staleVehicleIds,
        Instant newestEventTime,
        Instant newestUpdatedAt,
        Double rejectionRate,
        String rejectionRateUnavailable,
        PipelineCounters pipeline) {
    SummaryReply {
        requireNonNull(asOf, "asOf is null");
        countsByStatus = requireNonNull(countsByStatus, "countsByStatus is null");
        staleVehicleIds = List.copyOf(requireNonNull(staleVehicleIds, "staleVehicleIds is null"));
    }
}
