package io.fleetlake.dashboard;

import io.fleetlake.http.RequestObserver;
import io.fleetlake.model.FleetMetricNames;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The dashboard's request metrics by route (the path template, one label value per route): requests by status and a
 * latency histogram. Served by {@link DashboardMain} on {@code dashboard.metrics-port}.
 */
public final class DashboardMetrics implements RequestObserver {
    private static final double NANOS_PER_SECOND = 1e9;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name(FleetMetricNames.DASHBOARD_REQUESTS)
            .help("Requests the dashboard answered, by route and HTTP status")
            .labelNames("route", "status")
            .register(registry);
    private final Histogram duration = Histogram.builder()
            .name(FleetMetricNames.DASHBOARD_REQUEST_DURATION)
            .help("Time the dashboard took to answer, by route")
            .labelNames("route")
            // Redis reads take milliseconds; a replay through Trino can take seconds.
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);

    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void answered(String route, int status, long nanos) {
        requests.labelValues(route, Integer.toString(status)).inc();
        duration.labelValues(route).observe(nanos / NANOS_PER_SECOND);
    }
}
