package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether a Trino server has finished starting: {@code GET /v1/info} answers {@code "starting": false}. Trino
 * answers this endpoint (with {@code "starting": true}) before its catalogs and plugins are loaded, so a plain HTTP
 * probe would report it ready too early.
 */
public final class TrinoHealthCheck {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoHealthCheck.class);
    private static final Pattern STARTED = Pattern.compile("\"starting\"\\s*:\\s*false");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

    private final URI infoUri;
    private final HttpClient client;

    /** @param serverUri the server's base URI, such as {@code http://127.0.0.1:8080} */
    public TrinoHealthCheck(URI serverUri) {
        requireNonNull(serverUri, "serverUri is null");
        this.infoUri = serverUri.resolve("/v1/info");
        this.client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    }

    /**
     * True when the server answers and has finished starting; false while it is unreachable or still starting.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting for the answer
     */
    public boolean isReady() throws InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(infoUri).timeout(REQUEST_TIMEOUT).GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    && STARTED.matcher(response.body()).find();
        } catch (IOException e) {
            // Connection refused is the normal answer until the HTTP server is bound.
            LOG.debug("{} is not answering yet: {}", infoUri, e.toString());
            return false;
        }
    }

    public URI infoUri() {
        return infoUri;
    }
}
