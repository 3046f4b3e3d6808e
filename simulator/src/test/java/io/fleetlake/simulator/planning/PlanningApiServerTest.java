package io.fleetlake.simulator.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server over real HTTP on a free port of the loopback interface. */
class PlanningApiServerTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private PlanningApiServer server;

    @BeforeEach
    void startServer() {
        PlanningApiConfig config =
                PlanningApiConfig.from(ConfigSource.of(Map.of("planning.port", "0", "simulator.vehicles", "40")));
        server = new PlanningApiServer(config).start();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void servesTheContractOverHttp() throws Exception {
        assertThat(server.uri().toString()).startsWith("http://127.0.0.1:");
        assertThat(send(get(PlanningApi.HEALTH_PATH)).statusCode()).isEqualTo(200);

        HttpResponse<String> routes = send(get(PlanningApi.ROUTES_PATH));
        assertThat(routes.statusCode()).isEqualTo(200);
        assertThat(routes.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(RouteJson.readAll(routes.body())).hasSize(40);

        PlannedRoute route = RouteDirectoryTest.route("VH-0005", "OPS-1");
        HttpResponse<String> assigned = send(HttpRequest.newBuilder(uri(PlanningApi.vehicleRoutePath("VH-0005")))
                .PUT(BodyPublishers.ofString(RouteJson.write(route)))
                .header("Content-Type", "application/json")
                .build());
        assertThat(assigned.statusCode()).isEqualTo(204);
        HttpResponse<String> served = send(get(PlanningApi.vehicleRoutePath("VH-0005")));
        assertThat(RouteJson.read(served.body())).isEqualTo(route);

        HttpResponse<String> missing = send(get(PlanningApi.vehicleRoutePath("VH-0041")));
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("\"error\":\"NOT_FOUND\"");
        assertThat(server.directory().currentRoute("VH-0005")).contains(route);
    }

    @Test
    void startsOnceAndClosesQuietly() {
        HttpRequest health = get(PlanningApi.HEALTH_PATH);
        assertThatThrownBy(server::start).hasMessageContaining("already started");

        server.close();
        server.close();

        assertThatThrownBy(server::port).hasMessageContaining("not started");
        assertThatThrownBy(() -> send(health)).isInstanceOf(IOException.class);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(uri(path)).GET().build();
    }

    private URI uri(String path) {
        return server.uri().resolve(path);
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, BodyHandlers.ofString());
    }
}
