package io.fleetlake.dashboard.pipeline;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.Redaction;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** {@link FlinkRestClient} over {@code java.net.http}, with short timeouts: the summary must not wait for Flink. */
public final class JavaHttpFlinkRestClient implements FlinkRestClient {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    private static final int OK = 200;
    private static final int MAX_ERROR_CHARACTERS = 200;

    private final URI baseUri;
    private final HttpClient http;
    private final ObjectMapper mapper;

    public JavaHttpFlinkRestClient(URI baseUri, ObjectMapper mapper) {
        this.baseUri = requireNonNull(baseUri, "baseUri is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    @Override
    public JsonNode get(String pathAndQuery) throws IOException {
        requireNonNull(pathAndQuery, "pathAndQuery is null");
        String base = baseUri.toString().replaceAll("/+$", "");
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while asking Flink for " + pathAndQuery, e);
        } catch (IOException e) {
            throw new IOException("Flink REST API at " + Redaction.uri(baseUri) + " is unreachable: " + describe(e), e);
        }
        if (response.statusCode() != OK) {
            throw new IOException("Flink REST API answered " + response.statusCode() + " to " + pathAndQuery + ": "
                    + abbreviate(response.body()));
        }
        return mapper.readTree(response.body());
    }

    private static String describe(IOException e) {
        // java.net.http reports a refused connection as a ConnectException without a message.
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String abbreviate(String body) {
        return body.length() <= MAX_ERROR_CHARACTERS ? body : body.substring(0, MAX_ERROR_CHARACTERS) + "...";
    }
}
