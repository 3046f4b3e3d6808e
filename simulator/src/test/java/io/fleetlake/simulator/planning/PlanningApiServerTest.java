package io.fleetlake.simulator.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server over real HTTP on a free port of the loopback interface. */
class PlanningApiServerTest {
    private static final String TOKEN = "planning-token-0123456789";
    private static final int MAX_REQUEST_BYTES = 64 * 1024;

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private PlanningApiServer server;

    @BeforeEach
    void startServer() {
        server = start(Map.of());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void withoutTheTokenOnlyTheHealthCheckAnswers() throws Exception {
        HttpResponse<String> anonymous =
                send(HttpRequest.newBuilder(uri(PlanningApi.ROUTES_PATH)).GET().build());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"fleet-planning\"");
        assertThat(anonymous.body()).contains("\"error\":\"UNAUTHORIZED\"").doesNotContain(TOKEN);

        HttpResponse<String> wrong = send(HttpRequest.newBuilder(uri(PlanningApi.ROUTES_PATH))
                .header("Authorization", "Bearer " + TOKEN + "x")
                .GET()
                .build());
        assertThat(wrong.statusCode()).isEqualTo(401);

        PlannedRoute route = RouteDirectoryTest.route("VH-0005", "OPS-1");
        HttpResponse<String> assignment = send(HttpRequest.newBuilder(uri(PlanningApi.vehicleRoutePath("VH-0005")))
                .PUT(BodyPublishers.ofString(RouteJson.write(route)))
                .build());
        assertThat(assignment.statusCode()).isEqualTo(401);
        assertThat(server.directory().currentRoute("VH-0005")).isNotEqualTo(Optional.of(route));

        HttpResponse<String> health =
                send(HttpRequest.newBuilder(uri(PlanningApi.HEALTH_PATH)).GET().build());
        assertThat(health.statusCode()).as("health checks carry no secret").isEqualTo(200);
    }

    @Test
    void aBodyOverTheLimitIsRefusedDeclaredOrChunked() throws Exception {
        byte[] tooLarge = new byte[MAX_REQUEST_BYTES + 1];
        Arrays.fill(tooLarge, (byte) ' ');

        HttpResponse<String> declared = send(authorized(PlanningApi.vehicleRoutePath("VH-0005"))
                .PUT(BodyPublishers.ofByteArray(tooLarge))
                .build());
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.body()).contains("\"error\":\"PAYLOAD_TOO_LARGE\"");

        HttpResponse<String> chunked = send(authorized(PlanningApi.vehicleRoutePath("VH-0005"))
                .PUT(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tooLarge)))
                .build());
        assertThat(chunked.statusCode()).isEqualTo(413);

        assertThat(send(get(PlanningApi.ROUTES_PATH)).statusCode())
                .as("the server goes on")
                .isEqualTo(200);
    }

    @Test
    void oneRequestMoreThanTheLimitIsAnsweredBusyAtOnce() throws Exception {
        server.close();
        server = start(Map.of("planning.max-concurrent-requests", "1"));
        // A request that holds the only permit: its headers are sent, its body never completes.
        try (Socket slow = new Socket("127.0.0.1", server.port())) {
            OutputStream output = slow.getOutputStream();
            output.write(("PUT " + PlanningApi.vehicleRoutePath("VH-0005") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 1000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
            output.flush();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                HttpResponse<String> busy = send(get(PlanningApi.ROUTES_PATH));
                assertThat(busy.statusCode()).isEqualTo(503);
                assertThat(busy.headers().firstValue("Retry-After")).contains("1");
                assertThat(busy.body()).contains("\"error\":\"TOO_BUSY\"");
            });
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        send(get(PlanningApi.ROUTES_PATH)).statusCode())
                .as("the permit is released with the slow request")
                .isEqualTo(200));
    }

    @Test
    void withoutATokenTheServerDoesNotStart() {
        PlanningApiServer anonymous = new PlanningApiServer(
                PlanningApiConfig.from(ConfigSource.of(Map.of("planning.port", "0", "simulator.vehicles", "2"))));

        assertThatThrownBy(anonymous::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("planning.token");
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
        HttpResponse<String> assigned = send(authorized(PlanningApi.vehicleRoutePath("VH-0005"))
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
        return authorized(path).GET().build();
    }

    private HttpRequest.Builder authorized(String path) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKEN);
    }

    private static PlanningApiServer start(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(Map.of(
                "planning.port",
                "0",
                "simulator.vehicles",
                "40",
                "planning.token",
                TOKEN,
                "planning.max-request-bytes",
                Integer.toString(MAX_REQUEST_BYTES)));
        all.putAll(settings);
        return new PlanningApiServer(PlanningApiConfig.from(ConfigSource.of(all))).start();
    }

    private URI uri(String path) {
        return server.uri().resolve(path);
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, BodyHandlers.ofString());
    }
}
