package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.http.Reply;
import io.fleetlake.dashboard.pipeline.PipelineCounters;
import io.fleetlake.dashboard.pipeline.PipelineCountersReader;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import io.fleetlake.dashboard.vehicle.VehicleView;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.model.VehicleStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/summary}: counts by status, stale vehicles and the pipeline's rejection rate. Flink being unreachable
 * never fails the request: the rate is then null with the reason next to it.
 */
final class SummaryHandler {
    static final String UNKNOWN_STATUS = "UNKNOWN";

    private static final Logger LOG = LoggerFactory.getLogger(SummaryHandler.class);

    private final LiveFleetReader fleet;
    private final PipelineCountersReader counters;
    private final Duration staleAfter;

    SummaryHandler(LiveFleetReader fleet, PipelineCountersReader counters, Duration staleAfter) {
        this.fleet = requireNonNull(fleet, "fleet is null");
        this.counters = requireNonNull(counters, "counters is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
    }

    Reply summary(RouteRequest request) {
        LiveFleet live = fleet.fleet();
        List<VehicleView> vehicles = live.vehicles();
        PipelineCounters pipeline = null;
        Double rejectionRate = null;
        String unavailable = null;
        try {
            pipeline = counters.read();
            OptionalDouble rate = pipeline.rejectionRate();
            if (rate.isPresent()) {
                rejectionRate = rate.getAsDouble();
            } else {
                unavailable = "the pipeline has not read any record yet";
            }
        } catch (PipelineCountersUnavailableException e) {
            // Shown on the page; polled every few seconds, so a warning here would flood the log while Flink is down.
            LOG.debug("Pipeline counters unavailable", e);
            unavailable = e.getMessage();
        }
        return Reply.json(new SummaryReply(
                live.asOf(),
                vehicles.size(),
                countsByStatus(vehicles),
                staleAfter.toSeconds(),
                vehicles.stream()
                        .filter(VehicleView::stale)
                        .map(VehicleView::vehicleId)
                        .toList(),
                newest(vehicles.stream().map(VehicleView::eventTime).toList()),
                newest(vehicles.stream().map(VehicleView::updatedAt).toList()),
                rejectionRate,
                unavailable,
                pipeline));
    }

    static Map<String, Integer> countsByStatus(List<VehicleView> vehicles) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (VehicleStatus status : VehicleStatus.values()) {
            counts.put(status.name(), 0);
        }
        for (VehicleView vehicle : vehicles) {
            counts.merge(Objects.requireNonNullElse(vehicle.status(), UNKNOWN_STATUS), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(counts);
    }

    private static Instant newest(List<Instant> instants) {
        return instants.stream()
                .filter(Objects::nonNull)
                .max(Comparator.naturalOrder())
                .orElse(null);
    }
}
