package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;

class CatalogMetricsTest {
    private static final String LOAD_TABLE = "GET /v1/namespaces/{namespace}/tables/{table}";

    @Test
    void requestsAreCountedByEndpointAndStatusAndServerErrorsApart() {
        CatalogMetrics metrics = new CatalogMetrics();

        metrics.answered(LOAD_TABLE, 200, 2_000_000);
        metrics.answered(LOAD_TABLE, 200, 4_000_000);
        metrics.answered(LOAD_TABLE, 404, 1_000_000);
        metrics.answered(LOAD_TABLE, 500, 30_000_000);

        MetricSnapshots snapshots = metrics.registry().scrape();
        assertThat(counter(snapshots, "fleet_catalog_requests", Labels.of("endpoint", LOAD_TABLE, "status", "200")))
                .isEqualTo(2);
        assertThat(counter(snapshots, "fleet_catalog_requests", Labels.of("endpoint", LOAD_TABLE, "status", "404")))
                .isEqualTo(1);
        assertThat(counter(snapshots, "fleet_catalog_request_errors", Labels.of("endpoint", LOAD_TABLE)))
                .isEqualTo(1);
        HistogramSnapshot duration = (HistogramSnapshot) find(snapshots, "fleet_catalog_request_duration_seconds");
        assertThat(duration.getDataPoints().get(0).getCount()).isEqualTo(4);
        assertThat(duration.getDataPoints().get(0).getSum())
                .isCloseTo(0.037, org.assertj.core.data.Offset.offset(1e-9));
    }

    private static double counter(MetricSnapshots snapshots, String name, Labels labels) {
        return ((CounterSnapshot) find(snapshots, name))
                .getDataPoints().stream()
                        .filter(point -> point.getLabels().equals(labels))
                        .findFirst()
                        .orElseThrow()
                        .getValue();
    }

    private static MetricSnapshot find(MetricSnapshots snapshots, String name) {
        return snapshots.stream()
                .filter(snapshot -> snapshot.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No metric " + name));
    }
}
