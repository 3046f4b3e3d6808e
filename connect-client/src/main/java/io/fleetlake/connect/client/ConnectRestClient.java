package io.fleetlake.connect.client;

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

/**
 * The calls of the Kafka Connect REST API the project makes: register a connector, read its configuration and status,
 * restart it, delete it, and read the ingest worker's {@code /ingest/health}. Every request carries the credentials
 * given at construction (HTTP basic), so a worker that refuses anonymous requests answers; a client without
 * credentials is for a worker that does not ask for them (the bench's peer worker).
 *
 * <p>Thread-safe. Failures to reach the worker are {@link UncheckedIOException}s; answers with an unexpected status
 * are {@link ConnectRestException}s that carry it.
 */
public final class ConnectRestClient {
    /** The connect timeout of the HTTP client {@link #create} builds. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private final URI baseUri;
    private final HttpClient httpClient;
    private final Duration requestTimeout;
    private final Optional<BasicCredentials> credentials;

    /**
     * @param baseUri the worker's REST API, such as {@code http://127.0.0.1:8083}; a path is ignored
     * @param httpClient the client to send with
     * @param requestTimeout how long one request may take
     * @param credentials sent with every request, when present
     */
    public ConnectRestClient(
            URI baseUri, HttpClient httpClient, Duration requestTimeout, Optional<BasicCredentials> credentials) {
        this.baseUri = requireNonNull(baseUri, "baseUri is null");
        this.httpClient = requireNonNull(httpClient, "httpClient is null");
        this.requestTimeout = requireNonNull(requestTimeout, "requestTimeout is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
    }

    /** A client with an HTTP/1.1 client of its own that logs in as {@code credentials}. */
    public static ConnectRestClient create(URI baseUri, Duration requestTimeout, BasicCredentials credentials) {
        return new ConnectRestClient(
                baseUri, defaultHttpClient(), requestTimeout, Optional.of(requireNonNull(credentials, "credentials")));
    }

    /** A client for a worker that does not authenticate requests. */
    public static ConnectRestClient anonymous(URI baseUri, Duration requestTimeout) {
        return new ConnectRestClient(baseUri, defaultHttpClient(), requestTimeout, Optional.empty());
    }

    public URI baseUri() {
        return baseUri;
    }

    /**
     * Creates the connector or replaces its configuration ({@code PUT /connectors/<name>/config}); idempotent.
     *
     * @return true when the connector was created, false when an existing one was updated
     */
    public boolean putConnectorConfig(String name, Map<String, String> configuration) {
        String body;
        try {
            body = JSON.writeValueAsString(configuration);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot write the connector configuration as JSON", e);
        }
        HttpRequest request = request(connectorUri(name, "/config"))
                .header("Content-Type", "application/json")
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
    public Optional<Map<String, String>> connectorConfig(String name) {
        HttpRequest request = request(connectorUri(name, "/config")).GET().build();
        return getIfExists(request).map(body -> {
            try {
                return JSON.readValue(body, STRING_MAP);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("Unexpected answer to GET " + request.uri() + ": " + body, e);
            }
        });
    }

    /** The body of {@code GET /connectors/<name>/status}; empty when the connector does not exist. */
    public Optional<String> connectorStatus(String name) {
        return getIfExists(request(connectorUri(name, "/status")).GET().build());
    }

    /**
     * The body of {@code GET /connectors/<name>/tasks}: every task's id and configuration; empty when the connector
     * does not exist.
     */
    public Optional<String> connectorTasks(String name) {
        return getIfExists(request(connectorUri(name, "/tasks")).GET().build());
    }

    /** {@code POST /connectors/<name>/restart?includeTasks=true&onlyFailed=false}: restarts the connector and all tasks. */
    public void restartConnectorAndTasks(String name) {
        expectSuccess(request(connectorUri(name, "/restart?includeTasks=true&onlyFailed=false"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** {@code POST /connectors/<name>/tasks/<task>/restart}. */
    public void restartTask(String name, int task) {
        expectSuccess(request(connectorUri(name, "/tasks/" + task + "/restart"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** {@code PUT /connectors/<name>/pause}: the tasks stop processing and keep their resources. */
    public void pauseConnector(String name) {
        expectSuccess(request(connectorUri(name, "/pause"))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** {@code PUT /connectors/<name>/resume}: after a pause or a stop. */
    public void resumeConnector(String name) {
        expectSuccess(request(connectorUri(name, "/resume"))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** {@code PUT /connectors/<name>/stop}: the connector and its tasks shut down, their configuration kept. */
    public void stopConnector(String name) {
        expectSuccess(request(connectorUri(name, "/stop"))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** {@code DELETE /connectors/<name>}; a connector that does not exist is not an error. */
    public void deleteConnector(String name) {
        HttpRequest request = request(connectorUri(name, "")).DELETE().build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() / 100 != 2 && response.statusCode() != 404) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
    }

    /**
     * A GET of {@code path} under the base URI, answered with any status: for endpoints whose status is the answer,
     * such as {@code /ingest/health} (200 healthy, 503 not).
     */
    public HttpResponse<String> get(String path) {
        requireNonNull(path, "path is null");
        return send(request(baseUri.resolve(path)).GET().build());
    }

    private HttpRequest.Builder request(URI uri) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(uri).timeout(requestTimeout).header("Accept", "application/json");
        credentials.ifPresent(login -> builder.header("Authorization", login.authorizationHeader()));
        return builder;
    }

    private Optional<String> getIfExists(HttpRequest request) {
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
        return Optional.of(response.body());
    }

    private void expectSuccess(HttpRequest request) {
        HttpResponse<String> response = send(request);
        if (response.statusCode() / 100 != 2) {
            throw new ConnectRestException(request, response.statusCode(), response.body());
        }
    }

    private URI connectorUri(String name, String suffix) {
        requireNonNull(name, "name is null");
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

    private static HttpClient defaultHttpClient() {
        return HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** The REST API answered with an unexpected status. */
    public static final class ConnectRestException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int statusCode;

        ConnectRestException(HttpRequest request, int statusCode, String body) {
            super(request.method() + " " + request.uri() + " answered " + statusCode + ": " + body + hint(statusCode));
            this.statusCode = statusCode;
        }

        public int statusCode() {
            return statusCode;
        }

        /** Conflicts (a rebalance is under way) and server errors pass while the worker joins its group. */
        public boolean retriable() {
            return statusCode == 409 || statusCode >= 500;
        }

        private static String hint(int statusCode) {
            return switch (statusCode) {
                case 401 -> " (the worker refused the credentials: check the connect.rest-* passwords)";
                case 403 -> " (this principal may not do that: changes need the admin principal)";
                default -> "";
            };
        }
    }
}
