package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.model.planning.PlannedRoute;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns each poll of the planning API into one {@link RouteUpdate} per vehicle, so that the updates can be keyed by
 * vehicle like the positions: the vehicle's current route, and a withdrawal for every vehicle that had a route in the
 * previous poll and has none in this one (its route ended), so that its positions are no longer matched to it.
 *
 * <p>Every poll re-sends every route, refreshing the time it was fetched; routes are not compared here. Run with
 * parallelism 1, after the route source. The vehicles of the previous poll are checkpointed, so that a route withdrawn
 * while the job was down is still withdrawn by the first poll after a restore.
 */
public final class RouteUpdates implements FlatMapFunction<RoutePoll, RouteUpdate>, CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RouteUpdates.class);

    private transient ListState<String> checkpointedVehicles;
    private transient Set<String> vehiclesWithRoute;

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        checkpointedVehicles = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>("vehicles-with-route", Types.STRING));
        vehiclesWithRoute = new LinkedHashSet<>();
        if (context.isRestored()) {
            checkpointedVehicles.get().forEach(vehiclesWithRoute::add);
        }
    }

    @Override
    public void flatMap(RoutePoll poll, Collector<RouteUpdate> out) {
        Map<String, PlannedRoute> byVehicle = new LinkedHashMap<>();
        for (PlannedRoute route : poll.routes()) {
            PlannedRoute other = byVehicle.get(route.vehicleId());
            if (other == null) {
                byVehicle.put(route.vehicleId(), route);
                continue;
            }
            PlannedRoute newer = other.updatedAt().isAfter(route.updatedAt()) ? other : route;
            LOG.warn(
                    "The planning API lists routes {} and {} for vehicle {}; using {}, the one updated last",
                    other.routeId(),
                    route.routeId(),
                    route.vehicleId(),
                    newer.routeId());
            byVehicle.put(route.vehicleId(), newer);
        }
        for (String vehicleId : vehiclesWithRoute) {
            if (!byVehicle.containsKey(vehicleId)) {
                out.collect(RouteUpdate.withdrawn(vehicleId, poll.fetchedAt()));
            }
        }
        byVehicle.values().forEach(route -> out.collect(RouteUpdate.assigned(route, poll.fetchedAt())));
        vehiclesWithRoute = new LinkedHashSet<>(byVehicle.keySet());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        checkpointedVehicles.update(vehiclesWithRoute.stream().toList());
    }
}
