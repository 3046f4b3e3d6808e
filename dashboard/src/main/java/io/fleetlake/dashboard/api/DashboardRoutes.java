package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.health.HealthReader;
import io.fleetlake.dashboard.history.HistoryReader;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.http.Reply;
import io.fleetlake.dashboard.http.Router;
import io.fleetlake.dashboard.pipeline.PipelineCountersReader;
import io.fleetlake.dashboard.redis.CurrentStateReader;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.http.Route;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** The routing table of the dashboard: every path it serves and the handler that answers it. */
public final class DashboardRoutes {
    private DashboardRoutes() {}

    /**
     * @param currentState the live fleet (Redis)
     * @param history the Iceberg history (Trino)
     * @param counters the running pipeline's counters (Flink)
     */
    public static Router router(
            CurrentStateReader currentState,
            HistoryReader history,
            PipelineCountersReader counters,
            Settings settings,
            Clock clock,
            ObjectMapper mapper) {
        return router(
                currentState,
                history,
                counters,
                HealthReader.NOT_CONFIGURED,
                RequestObserver.NONE,
                settings,
                clock,
                mapper);
    }

    /**
     * @param health the stack's health report (fleet-exporter), for the health panel
     * @param observer told about every request, for metrics
     */
    public static Router router(
            CurrentStateReader currentState,
            HistoryReader history,
            PipelineCountersReader counters,
            HealthReader health,
            RequestObserver observer,
            Settings settings,
            Clock clock,
            ObjectMapper mapper) {
        requireNonNull(settings, "settings is null");
        requireNonNull(health, "health is null");
        LiveFleetReader fleet = new LiveFleetReader(currentState, clock, settings.staleAfter());
        VehiclesHandler vehicles = new VehiclesHandler(fleet, settings.staleAfter());
        SummaryHandler summary = new SummaryHandler(fleet, counters, settings.staleAfter());
        ReplayHandler replay = new ReplayHandler(history, clock, settings.staleAfter(), settings.replayLookback());
        PageResources page = PageResources.load();
        ClientSettings clientSettings = new ClientSettings(
                settings.pollInterval().toMillis(),
                settings.staleAfter().toMillis(),
                settings.replayLookback().toMillis());
        return new Router(
                List.of(
                        Route.get("/", page::page),
                        Route.get("/dashboard.js", page::script),
                        Route.get("/dashboard.css", page::styles),
                        Route.get("/region.geojson", page::region),
                        Route.get("/healthz", request -> Reply.json(Health.UP)),
                        Route.get("/api/config", request -> Reply.json(clientSettings)),
                        Route.get("/api/vehicles", vehicles::vehicles),
                        Route.get("/api/vehicles/{id}", vehicles::vehicle),
                        Route.get("/api/summary", summary::summary),
                        Route.get("/api/replay", replay::replay),
                        Route.get("/api/snapshots", replay::snapshots),
                        Route.get("/api/health", request -> Reply.text(HttpResponse.JSON, health.healthJson()))),
                mapper,
                observer);
    }

    /**
     * The configuration the handlers use.
     *
     * @param staleAfter a vehicle whose newest fix is older is stale
     * @param pollInterval how often the page refreshes
     * @param replayLookback how far before a replay instant the history is scanned
     */
    public record Settings(Duration staleAfter, Duration pollInterval, Duration replayLookback) {
        public Settings {
            requireNonNull(staleAfter, "staleAfter is null");
            requireNonNull(pollInterval, "pollInterval is null");
            requireNonNull(replayLookback, "replayLookback is null");
        }
    }
}
