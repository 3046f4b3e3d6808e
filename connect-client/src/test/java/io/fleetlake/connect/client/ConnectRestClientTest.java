package io.fleetlake.connect.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against a loopback HTTP server that answers like the Connect REST API. */
class ConnectRestClientTest {
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private ConnectRestClient client;
    private volatile int statusCode;
    private volatile String body;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
        client = new ConnectRestClient(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                HttpClient.newHttpClient(),
                Duration.ofSeconds(5),
                Optional.of(new BasicCredentials("admin", "s3cret-value")));
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void putConnectorConfigSendsTheConfigurationAsJson() {
        answerWith(201, "{}");

        boolean created = client.putConnectorConfig("mqtt-positions", Map.of("tasks.max", "1"));

        assertThat(created).isTrue();
        assertThat(requests).containsExactly("PUT /connectors/mqtt-positions/config {\"tasks.max\":\"1\"}");
    }

    @Test
    void putOfAnExistingConnectorIsAnUpdate() {
        answerWith(200, "{}");

        assertThat(client.putConnectorConfig("mqtt-positions", Map.of())).isFalse();
    }

    @Test
    void conflictWhileTheWorkerJoinsIsRetriableAndBadRequestIsNot() {
        answerWith(409, "{\"error_code\":409,\"message\":\"rebalance\"}");
        assertThatThrownBy(() -> client.putConnectorConfig("mqtt-positions", Map.of()))
                .isInstanceOfSatisfying(ConnectRestClient.ConnectRestException.class, e -> assertThat(e.retriable())
                        .isTrue())
                .hasMessageContaining("409");

        answerWith(400, "{\"error_code\":400,\"message\":\"Connector configuration is invalid\"}");
        assertThatThrownBy(() -> client.putConnectorConfig("mqtt-positions", Map.of()))
                .isInstanceOfSatisfying(ConnectRestClient.ConnectRestException.class, e -> assertThat(e.retriable())
                        .isFalse())
                .hasMessageContaining("Connector configuration is invalid");
    }

    @Test
    void statusOfAMissingConnectorIsEmpty() {
        answerWith(404, "{\"error_code\":404,\"message\":\"No status found\"}");

        assertThat(client.connectorStatus("mqtt-positions")).isEmpty();
    }

    @Test
    void statusIsTheBodyOfTheAnswer() {
        String status = "{\"name\":\"mqtt-positions\",\"connector\":{\"state\":\"RUNNING\"},"
                + "\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"}],\"type\":\"source\"}";
        answerWith(200, status);

        assertThat(client.connectorStatus("mqtt-positions")).contains(status);
        assertThat(requests).containsExactly("GET /connectors/mqtt-positions/status ");
    }

    @Test
    void configIsReadAsAMap() {
        answerWith(200, "{\"name\":\"mqtt-positions\",\"tasks.max\":\"1\"}");

        assertThat(client.connectorConfig("mqtt-positions"))
                .contains(Map.of("name", "mqtt-positions", "tasks.max", "1"));
    }

    @Test
    void restartAsksForTheConnectorAndAllItsTasksWhateverTheirState() {
        answerWith(202, "{}");

        client.restartConnectorAndTasks("mqtt-positions");

        assertThat(requests)
                .containsExactly("POST /connectors/mqtt-positions/restart?includeTasks=true&onlyFailed=false ");
    }

    @Test
    void restartOfOneTask() {
        answerWith(202, "{}");

        client.restartTask("mqtt-positions", 2);

        assertThat(requests).containsExactly("POST /connectors/mqtt-positions/tasks/2/restart ");
    }

    @Test
    void refusedRestartNamesTheAnswer() {
        answerWith(409, "{\"message\":\"rebalance in progress\"}");

        assertThatThrownBy(() -> client.restartTask("mqtt-positions", 0))
                .isInstanceOf(ConnectRestClient.ConnectRestException.class)
                .hasMessageContaining("409")
                .hasMessageContaining("rebalance in progress");
    }

    @Test
    void everyRequestCarriesTheCredentials() {
        answerWith(200, "{}");

        client.connectorConfig("mqtt-positions");
        client.connectorStatus("mqtt-positions");
        client.get("/ingest/health");

        // "admin:s3cret-value" in Base64, as RFC 7617 spells it.
        assertThat(authorizations)
                .containsExactly(
                        "Basic YWRtaW46czNjcmV0LXZhbHVl",
                        "Basic YWRtaW46czNjcmV0LXZhbHVl",
                        "Basic YWRtaW46czNjcmV0LXZhbHVl");
    }

    @Test
    void anAnonymousClientSendsNoCredentials() {
        answerWith(200, "{}");

        ConnectRestClient.anonymous(client.baseUri(), Duration.ofSeconds(5)).connectorStatus("mqtt-positions");

        assertThat(authorizations).containsExactly("none");
    }

    @Test
    void refusedCredentialsSayWhatToCheck() {
        answerWith(401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");

        assertThatThrownBy(() -> client.connectorStatus("mqtt-positions"))
                .isInstanceOfSatisfying(ConnectRestClient.ConnectRestException.class, e -> assertThat(e.statusCode())
                        .isEqualTo(401))
                .hasMessageContaining("refused the credentials");
    }

    @Test
    void deleteOfAMissingConnectorIsNotAnError() {
        answerWith(404, "{}");

        client.deleteConnector("mqtt-positions");

        assertThat(requests).containsExactly("DELETE /connectors/mqtt-positions ");
    }

    @Test
    void credentialsAreNotShown() {
        assertThat(new BasicCredentials("admin", "s3cret-value").toString())
                .contains("admin")
                .doesNotContain("s3cret-value");
        assertThatThrownBy(() -> new BasicCredentials("ad:min", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    private void answerWith(int statusCode, String body) {
        this.statusCode = statusCode;
        this.body = body;
    }

    private void answer(HttpExchange exchange) throws IOException {
        String requestBody = new String(exchange.getRequestBody().readAllBytes(), UTF_8);
        requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + requestBody);
        authorizations.add(Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization"))
                .orElse("none"));
        byte[] response = body.getBytes(UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(statusCode, response.length);
        try (OutputStream output = exchange.getResponseBody()) {
            output.write(response);
        }
    }
}
