package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The calls of the Connect REST API the worker needs: register a connector, read its status, restart it. */
final class ConnectRestClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private final URI baseUri;
    private final HttpClient httpClient;
    private final Duration requestTimeout;

    ConnectRestClient(URI baseUri, HttpClient httpClient, Duration requestTimeout) {
        this.baseUri = requireNonNull(baseUri, "baseUri is null");
        this.httpClient = requireNonNull(httpClient, "httpClient is null");
        this.requestTimeout = requireNonNull(requestTimeout, "requestTimeout is null");
    }

    /**
     * Creates the connector or replaces its configuration ({@code PUT /connectors/<name>/config}); idempotent.
     *
     * @return true when the connector was created, false when an existing one was updated
     */
    boolean putConnectorConfig(String name, Map<String, String> configuration) {
        String body;
        try {
            body = JSON.writeValueAsString(configuration);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot write the connector configuration as JSON", e);
        }
        HttpRequest request = HttpRequest.newBuilder(connectorUri(name, "/config"))
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 201) {
            return true;
        }
        if (response.statusCode() == 200) {
            return false;
        }
        throw new ConnectRestException(request, response.statusCode(), response.body());
    }

    /** {@code GET /connectors/<name>/config}; empty when the connector does not exist. */
    Optional<Map<String, String>> connectorConfig(String name) {
        HttpRequest request = HttpRequest.newBuilder(connectorUri(name, "/config"))
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
        try {
            return Optional.of(JSON.readValue(response.body(), STRING_MAP));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unexpected answer to GET " + request.uri() + ": " + response.body(), e);
        }
    }

    /** {@code POST /connectors/<name>/restart?includeTasks=true&onlyFailed=false}: restarts the connector and all tasks. */
    void restartConnectorAndTasks(String name) {
        post(connectorUri(name, "/restart?includeTasks=true&onlyFailed=false"));
    }

    /** {@code POST /connectors/<name>/tasks/<task>/restart}. */
    void restartTask(String name, int task) {
        post(connectorUri(name, "/tasks/" + task + "/restart"));
    }

    private void post(URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() / 100 != 2) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
    }

    /** {@code GET /connectors/<name>/status}; empty when the connector does not exist. */
    Optional<ConnectorStatus> connectorStatus(String name) {
        HttpRequest request = HttpRequest.newBuilder(connectorUri(name, "/status"))
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
        return Optional.of(ConnectorStatus.fromJson(response.body()));
    }

    private URI connectorUri(String name, String suffix) {
        return baseUri.resolve("/connectors/" + URLEncoder.encode(name, StandardCharsets.UTF_8) + suffix);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return httpClient.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during " + request.method() + " " + request.uri(), e);
        }
    }

    /** The REST API answered with an unexpected status. */
    static final class ConnectRestException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int statusCode;

        ConnectRestException(HttpRequest request, int statusCode, String body) {
            super(request.method() + " " + request.uri() + " answered " + statusCode + ": " + body);
            this.statusCode = statusCode;
        }

        /** Conflicts (a rebalance is under way) and server errors pass while the worker joins its group. */
        boolean retriable() {
            return statusCode == 409 || statusCode >= 500;
        }
    }
}
