package io.fleetlake.model.catalog;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Bearer tokens for the catalog's plain HTTP clients (the stack's checks, the audit commands), which call the REST API
 * directly instead of through Iceberg's client: fetched with the client credentials at {@value
 * CatalogAuthentication#TOKENS_PATH} and reused until shortly before they expire. Thread-safe.
 */
public final class CatalogTokens {
    /** A token is renewed this long before it expires, so that no request carries one that expires on the way. */
    static final Duration RENEW_BEFORE = Duration.ofSeconds(30);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI tokenEndpoint;
    private final CatalogCredential credential;
    private final HttpClient http;
    private final Duration timeout;
    private final Clock clock;
    private String token;
    private Instant renewAt = Instant.MIN;

    public CatalogTokens(String catalogUri, CatalogCredential credential, HttpClient http, Duration timeout) {
        this(catalogUri, credential, http, timeout, Clock.systemUTC());
    }

    CatalogTokens(String catalogUri, CatalogCredential credential, HttpClient http, Duration timeout, Clock clock) {
        this.tokenEndpoint = URI.create(CatalogAuthentication.tokenEndpoint(catalogUri));
        this.credential = requireNonNull(credential, "credential is null");
        this.http = requireNonNull(http, "http is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The value of the {@code Authorization} header: {@code Bearer <token>}. */
    public synchronized String authorization() {
        if (token == null || !clock.instant().isBefore(renewAt)) {
            fetch();
        }
        return "Bearer " + token;
    }

    /** Forgets the current token, so that the next request fetches a new one (after a 401). */
    public synchronized void invalidate() {
        token = null;
    }

    private void fetch() {
        String form = "grant_type=client_credentials&client_id=" + encode(credential.clientId()) + "&client_secret="
                + encode(credential.secret()) + "&scope=" + encode(CatalogAuthentication.SCOPE);
        HttpRequest request = HttpRequest.newBuilder(tokenEndpoint)
                .timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        Instant requested = clock.instant();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot reach the catalog's token endpoint " + tokenEndpoint + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while fetching a catalog token", e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("The catalog refused a token to client " + credential.clientId() + " (HTTP "
                    + response.statusCode() + "): check its credential; " + response.body());
        }
        try {
            JsonNode body = JSON.readTree(response.body());
            token = body.path("access_token").asText();
            long seconds = body.path("expires_in").asLong(60);
            renewAt = requested.plusSeconds(seconds).minus(RENEW_BEFORE);
        } catch (IOException e) {
            throw new UncheckedIOException("The catalog's token response is not JSON: " + e.getMessage(), e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
