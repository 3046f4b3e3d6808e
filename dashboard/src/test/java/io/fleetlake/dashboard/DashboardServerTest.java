package io.fleetlake.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.dashboard.fakes.FakeCurrentState;
import io.fleetlake.dashboard.fakes.FakeHistory;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.fleetlake.dashboard.security.SignIn;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The three layers together on a real HTTP server (loopback, free port), with fakes behind the reader seams. */
class DashboardServerTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:00Z");

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper mapper = new ObjectMapper();
    private final FakeCurrentState redis = new FakeCurrentState();
    private final AtomicBoolean resourcesClosed = new AtomicBoolean();
    private DashboardServer server;
    private String session;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void servesThePageAndTheApiOnLoopback() throws Exception {
        redis.vehicle("VH-0001", NOW.minusSeconds(1), 40.4168, -3.7038, "ON_ROUTE");
        start();

        assertThat(server.endpoint()).isEqualTo("127.0.0.1:" + server.port());
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=utf-8");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(page.body()).contains("<title>Fleet operations</title>");

        HttpResponse<String> vehicles = get("/api/vehicles");
        assertThat(vehicles.statusCode()).isEqualTo(200);
        assertThat(vehicles.headers().firstValue("Content-Type")).hasValue("application/json;charset=utf-8");
        JsonNode body = mapper.readTree(vehicles.body());
        assertThat(body.path("as_of").asText()).isEqualTo("2026-11-29T18:00:00Z");
        assertThat(body.path("vehicles").get(0).path("vehicle_id").asText()).isEqualTo("VH-0001");

        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        assertThat(get("/region.geojson").body()).startsWith("{\"type\":\"FeatureCollection\"");
        assertThat(get("/api/vehicles/VH-0001").statusCode()).isEqualTo(200);
    }

    @Test
    void errorsAreJsonWithTheirStatus() throws Exception {
        start();

        HttpResponse<String> missing = get("/api/vehicles/VH%200042");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(mapper.readTree(missing.body()).path("message").asText()).contains("Vehicle VH 0042");

        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(server.uri().resolve("/api/vehicles"))
                        .header("Cookie", session())
                        .header("X-CSRF-Token", SignIn.csrfToken(http, server.uri(), session()))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);

        assertThat(get("/api/replay?at=noon").statusCode()).isEqualTo(400);
        assertThat(get("/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void listensOnlyOnTheConfiguredAddress() throws Exception {
        start();

        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 1000);
            assertThat(socket.isConnected()).isTrue();
        }
        InetAddress other = nonLoopbackAddress();
        if (other != null) {
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(other, server.port()), 1000);
                        }
                    })
                    .as("connecting through %s", other)
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void closeStopsListeningAndClosesTheClients() throws Exception {
        start();
        int port = server.port();

        server.close();

        assertThat(resourcesClosed).isTrue();
        assertThatThrownBy(() -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                    }
                })
                .isInstanceOf(java.io.IOException.class);
        assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
        server = null;
    }

    @Test
    void aSecondStartIsRefused() {
        start();

        assertThatThrownBy(server::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The dashboard is already started");
    }

    private void start() {
        DashboardConfig config = DashboardConfig.from(ConfigSource.of(Map.of("dashboard.port", "0")));
        server = new DashboardServer(
                        config,
                        DashboardSecurityConfig.from(ConfigSource.of(Map.of("dashboard.password", PASSWORD))),
                        (configuration, jsonMapper) -> new Backends(
                                redis,
                                new FakeHistory(),
                                () -> {
                                    throw new PipelineCountersUnavailableException("no Flink in this test");
                                },
                                () -> resourcesClosed.set(true)),
                        Clock.fixed(NOW, ZoneOffset.UTC))
                .start();
    }

    private HttpResponse<String> get(String path) throws Exception {
        URI uri = server.uri().resolve(path);
        return http.send(
                HttpRequest.newBuilder(uri).header("Cookie", session()).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The session cookie, signing in at the first call as the browser would. */
    private String session() throws Exception {
        if (session == null) {
            session = SignIn.as(http, server.uri(), "operator", PASSWORD).sessionCookie();
        }
        return session;
    }

    private static InetAddress nonLoopbackAddress() throws Exception {
        for (var network : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : java.util.Collections.list(network.getInetAddresses())) {
                if (!address.isLoopbackAddress() && address instanceof java.net.Inet4Address) {
                    return address;
                }
            }
        }
        return null;
    }
}
