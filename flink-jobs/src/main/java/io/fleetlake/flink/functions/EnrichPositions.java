package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.RouteGeometry;
import io.fleetlake.flink.enrichment.StatusTracker;
import io.fleetlake.flink.enrichment.StatusTracker.Observation;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.model.PipelineMetricNames;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Enriches each accepted position with where the vehicle is on its planned route. Keyed by vehicle id, both inputs:
 * the positions, and the route updates of the planning API ({@link RouteUpdates}). Never waits for the planning API: a
 * position is enriched with whatever route is in state when it arrives.
 *
 * <ul>
 *   <li>A route update replaces the vehicle's route in keyed state, with the time it was fetched; a withdrawal clears
 *       it. The route's geometry ({@link RouteGeometry}) is computed once per new route, not per position.
 *   <li>A position is judged by the vehicle's {@link StatusTracker} (kept in keyed state) against that route. When the
 *       route was fetched more than {@code enrichment.route-stale-after} ago (processing time; the planning API has
 *       been unreachable since), it is still used and the position is flagged {@code enrichment_stale}. Without a route
 *       the status comes from the speed alone ({@code STOPPED} or {@code NO_ROUTE}) and the route fields are null.
 * </ul>
 *
 * <p>Both states expire {@code ttl} after they were last written, so a vehicle that stops reporting, or whose route is
 * no longer refreshed, leaves no state behind. Each route poll rewrites the route of every vehicle that has one.
 *
 * <p><b>Replays.</b> The tracker is checkpointed with the source offsets, so a replay after a failover judges the same
 * positions from the same tracker. Which route a replayed position meets depends on when the route updates arrive
 * relative to it, and the stale flag on the processing time: both describe what the pipeline knew when it processed
 * the position, not a property of the position.
 */
public final class EnrichPositions
        extends KeyedCoProcessFunction<String, IngestedPosition, RouteUpdate, EnrichedPosition> {
    private static final long serialVersionUID = 1L;

    private final EnrichmentConfig config;
    private final VehicleStateTtl ttl;

    private transient ValueState<CurrentRoute> route;
    private transient ValueState<StatusTracker> tracker;
    private transient Counter routeUpdates;
    private transient Counter staleEnrichments;

    public EnrichPositions(EnrichmentConfig config, Duration ttl) {
        this.config = requireNonNull(config, "config is null");
        this.ttl = new VehicleStateTtl(ttl);
    }

    @Override
    public void open(OpenContext openContext) {
        route = getRuntimeContext()
                .getState(ttl.applyTo(
                        new ValueStateDescriptor<>("current-route", TypeInformation.of(CurrentRoute.class))));
        tracker = getRuntimeContext()
                .getState(ttl.applyTo(
                        new ValueStateDescriptor<>("status-tracker", TypeInformation.of(StatusTracker.class))));
        routeUpdates = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.ROUTE_UPDATES);
        staleEnrichments = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.STALE_ENRICHMENTS);
    }

    @Override
    public void processElement1(IngestedPosition position, Context context, Collector<EnrichedPosition> out)
            throws Exception {
        CurrentRoute current = route.value();
        boolean stale =
                current != null && isStale(current, context.timerService().currentProcessingTime());
        StatusTracker before = tracker.value();
        if (before == null) {
            before = StatusTracker.INITIAL;
        }
        Observation observation =
                before.observe(position.position(), current == null ? null : current.geometry(), stale, config);
        if (observation.tracker() != before) {
            tracker.update(observation.tracker());
        }
        if (stale) {
            staleEnrichments.inc();
        }
        out.collect(new EnrichedPosition(position, observation.enrichment()));
    }

    private boolean isStale(CurrentRoute current, long now) {
        return now - current.fetchedAt().toEpochMilli()
                > config.routeStaleAfter().toMillis();
    }

    @Override
    public void processElement2(RouteUpdate update, Context context, Collector<EnrichedPosition> out) throws Exception {
        routeUpdates.inc();
        if (!update.hasRoute()) {
            route.clear();
            return;
        }
        CurrentRoute current = route.value();
        RouteGeometry geometry = current != null && current.geometry().route().equals(update.route())
                ? current.geometry()
                : RouteGeometry.of(update.route());
        route.update(new CurrentRoute(geometry, update.fetchedAt()));
    }

    /**
     * A vehicle's route as the enrichment keeps it.
     *
     * @param geometry the route, measured
     * @param fetchedAt when the planning API last returned it
     */
    public record CurrentRoute(RouteGeometry geometry, Instant fetchedAt) {
        public CurrentRoute {
            requireNonNull(geometry, "geometry is null");
            requireNonNull(fetchedAt, "fetchedAt is null");
        }
    }
}
