package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.dashboard.history.HistoryReader;
import io.fleetlake.dashboard.history.ReplayQuery;
import io.fleetlake.dashboard.http.Reply;
import io.fleetlake.dashboard.vehicle.UnreadableVehicleException;
import io.fleetlake.dashboard.vehicle.VehicleRowMapper;
import io.fleetlake.dashboard.vehicle.VehicleView;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.model.codec.PositionField;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/replay?at=...[&snapshot=...]} and {@code GET /api/snapshots}: the fleet reconstructed from the Iceberg
 * history through Trino, for audits.
 */
final class ReplayHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayHandler.class);

    private final HistoryReader history;
    private final Clock clock;
    private final Duration staleAfter;
    private final Duration lookback;

    ReplayHandler(HistoryReader history, Clock clock, Duration staleAfter, Duration lookback) {
        this.history = requireNonNull(history, "history is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
        this.lookback = requireNonNull(lookback, "lookback is null");
    }

    Reply replay(RouteRequest request) {
        Instant at = ReplayParameters.at(request.query(ReplayParameters.AT));
        OptionalLong snapshot = ReplayParameters.snapshot(request.query(ReplayParameters.SNAPSHOT));
        if (snapshot.isPresent() && history.snapshot(snapshot.getAsLong()).isEmpty()) {
            throw new DashboardException(
                    DashboardError.SNAPSHOT_NOT_FOUND,
                    "snapshot " + snapshot.getAsLong() + " does not exist (expired?): pick one from /api/snapshots");
        }
        ReplayQuery query = ReplayQuery.of(at, snapshot, lookback);
        Instant staleBefore = query.at().minus(staleAfter);
        List<VehicleView> vehicles = new ArrayList<>();
        List<SkippedVehicle> skipped = new ArrayList<>();
        for (Map<String, Object> row : history.rows(query)) {
            try {
                vehicles.add(VehicleRowMapper.toVehicle(row, staleBefore));
            } catch (UnreadableVehicleException e) {
                skipped.add(new SkippedVehicle(
                        String.valueOf(row.get(PositionField.VEHICLE_ID.fieldName())), e.getMessage()));
            }
        }
        if (!skipped.isEmpty()) {
            LOG.warn("Replay at {} left out {} unreadable rows, first: {}", query.at(), skipped.size(), skipped.get(0));
        }
        vehicles.sort(Comparator.comparing(VehicleView::vehicleId));
        return Reply.json(new ReplayReply(
                ReplayReply.REPLAY,
                query.at(),
                snapshot.isPresent() ? Long.toString(snapshot.getAsLong()) : null,
                clock.instant().truncatedTo(ChronoUnit.MILLIS),
                query.scanFrom(),
                staleAfter.toSeconds(),
                vehicles,
                skipped));
    }

    Reply snapshots(RouteRequest request) {
        return Reply.json(SnapshotsReply.of(history.recentSnapshots()));
    }
}
