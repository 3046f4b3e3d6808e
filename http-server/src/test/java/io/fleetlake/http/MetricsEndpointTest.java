package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.MetricsEndpointConfig;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {
    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void servesTheRegistryOnItsOwnPortUntilClosed() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("fleet_test_requests").register(registry).inc();
        int port;
        try (MetricsEndpoint endpoint = new MetricsEndpoint(
                new MetricsEndpointConfig("127.0.0.1", OptionalInt.of(0)), "catalog", "Catalog", registry)) {
            endpoint.start();
            port = endpoint.port().orElseThrow();

            HttpResponse<String> response = get(port);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("fleet_test_requests_total 1.0");
        }
        assertThatThrownBy(() -> get(port)).isInstanceOf(ConnectException.class);
    }

    @Test
    void withoutAPortNothingIsServed() {
        try (MetricsEndpoint endpoint = new MetricsEndpoint(
                new MetricsEndpointConfig("127.0.0.1", OptionalInt.empty()),
                "dashboard",
                "Dashboard",
                new PrometheusRegistry())) {
            endpoint.start();

            assertThat(endpoint.port()).isEmpty();
        }
    }

    @Test
    void aTakenPortIsNamedByItsKey() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                MetricsEndpoint endpoint = new MetricsEndpoint(
                        new MetricsEndpointConfig("127.0.0.1", OptionalInt.of(taken.getLocalPort())),
                        "dashboard",
                        "Dashboard",
                        new PrometheusRegistry())) {
            assertThatThrownBy(endpoint::start)
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("Cannot serve the dashboard's metrics on 127.0.0.1:" + taken.getLocalPort()
                            + " (dashboard.metrics-port)");
        }
    }

    private HttpResponse<String> get(int port) throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
