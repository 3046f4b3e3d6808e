package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.operations.inspect.PrometheusText.Sample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    @Test
    void samplesWithAndWithoutLabelsEscapesAndSpecialValues() {
        List<Sample> samples = PrometheusText.parse(
                """
                # HELP fleet_mqtt_publishes_received_total PUBLISH packets the broker received
                # TYPE fleet_mqtt_publishes_received_total counter
                fleet_mqtt_publishes_received_total 920.0
                fleet_catalog_requests_total{endpoint="GET /v1/namespaces/{namespace}",status="200"} 12
                odd{label="a \\"quoted\\" value, with a comma",other="x"} NaN 1700000000000
                up{job="kafka"} +Inf

                """);

        assertThat(samples)
                .containsExactly(
                        new Sample("fleet_mqtt_publishes_received_total", Map.of(), 920.0),
                        new Sample(
                                "fleet_catalog_requests_total",
                                Map.of("endpoint", "GET /v1/namespaces/{namespace}", "status", "200"),
                                12),
                        new Sample(
                                "odd", Map.of("label", "a \"quoted\" value, with a comma", "other", "x"), Double.NaN),
                        new Sample("up", Map.of("job", "kafka"), Double.POSITIVE_INFINITY));
    }
}
