package io.fleetlake.flink.sources;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetlake.model.planning.RouteJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The route client against a loopback server that, like the planning API, wants a bearer token. */
class PlanningApiClientTest {
    private static final String TOKEN = "planning-token-0123456789";

    private HttpServer server;
    private URI uri;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
        uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void sendsTheTokenAsABearer() throws Exception {
        PlanningApiClient client =
                new PlanningApiClient(uri, Optional.of(TOKEN), Duration.ofSeconds(5), Clock.systemUTC());

        assertThat(client.fetch().get(10, TimeUnit.SECONDS).routes()).isEmpty();
    }

    @Test
    void aRefusalNamesTheKeyToSet() {
        PlanningApiClient client =
                new PlanningApiClient(uri, Optional.empty(), Duration.ofSeconds(5), Clock.systemUTC());

        assertThatThrownBy(() -> client.fetch().get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(PlanningApiClient.PlanningApiException.class)
                .hasMessageContaining("enrichment.planning-token");
    }

    private void answer(HttpExchange exchange) throws IOException {
        boolean authorized =
                ("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"));
        byte[] body = (authorized ? RouteJson.writeAll(List.of()) : "{\"error\":\"UNAUTHORIZED\"}").getBytes(UTF_8);
        exchange.sendResponseHeaders(authorized ? 200 : 401, body.length);
        try (OutputStream output = exchange.getResponseBody()) {
            output.write(body);
        }
    }
}
