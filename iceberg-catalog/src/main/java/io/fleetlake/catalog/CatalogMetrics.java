package io.fleetlake.catalog;

import io.fleetlake.http.RequestObserver;
import io.fleetlake.model.FleetMetricNames;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The catalog's request metrics, by endpoint (the route's template, so the label has one value per route, not per
 * table): requests by status, server errors, and a latency histogram. Served by {@link RestCatalogServerMain} on
 * {@code catalog.metrics-port}.
 */
public final class CatalogMetrics implements RequestObserver {
    private static final int SERVER_ERROR = 500;
    private static final double NANOS_PER_SECOND = 1e9;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name(FleetMetricNames.CATALOG_REQUESTS)
            .help("Requests the REST catalog answered, by endpoint and HTTP status")
            .labelNames("endpoint", "status")
            .register(registry);
    private final Counter errors = Counter.builder()
            .name(FleetMetricNames.CATALOG_REQUEST_ERRORS)
            .help("Requests the REST catalog answered with a server error (5xx), by endpoint")
            .labelNames("endpoint")
            .register(registry);
    private final Histogram duration = Histogram.builder()
            .name(FleetMetricNames.CATALOG_REQUEST_DURATION)
            .help("Time the REST catalog took to answer, by endpoint")
            .labelNames("endpoint")
            // Loads take milliseconds; commits against a busy SQLite file can take seconds.
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
            .register(registry);

    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void answered(String endpoint, int status, long nanos) {
        requests.labelValues(endpoint, Integer.toString(status)).inc();
        if (status >= SERVER_ERROR) {
            errors.labelValues(endpoint).inc();
        }
        duration.labelValues(endpoint).observe(nanos / NANOS_PER_SECOND);
    }
}
