package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogTokens;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The few Iceberg REST catalog calls the tag commands make ({@code java.net.http} and Jackson, no Iceberg client):
 * {@code GET /v1/config} for the optional path prefix, {@code GET} a table (load) and {@code POST} a table (commit).
 */
final class CatalogRestCalls {
    private static final String JSON = "application/json";

    private final URI baseUri;
    private final Duration timeout;
    private final ObjectMapper mapper;
    private final HttpClient http;
    private final Optional<CatalogTokens> tokens;

    CatalogRestCalls(URI baseUri, Duration timeout, ObjectMapper mapper) {
        this(baseUri, timeout, mapper, Optional.empty());
    }

    /** @param credential the client credentials to fetch bearer tokens with; empty to send none */
    CatalogRestCalls(URI baseUri, Duration timeout, ObjectMapper mapper, Optional<CatalogCredential> credential) {
        this.baseUri = requireNonNull(baseUri, "baseUri is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.tokens = requireNonNull(credential, "credential is null")
                .map(present -> new CatalogTokens(baseUri.toString(), present, http, timeout));
    }

    /** Loads the table's metadata ({@code LoadTableResult.metadata}). */
    TableMetadataView loadTable(AuditTable table) {
        URI uri = tableUri(table);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET(), "load " + table.qualifiedName());
        if (response.statusCode() == 404) {
            throw tableNotFound(table);
        }
        requireSuccess(response, "GET " + uri.getPath());
        return metadataOf(response);
    }

    /**
     * Commits a {@code CommitTableRequest}.
     *
     * @return the table's metadata after the commit, or empty when a requirement failed (409: someone else changed the
     *     table or the ref since it was loaded)
     */
    Optional<TableMetadataView> commit(AuditTable table, ObjectNode request) {
        URI uri = tableUri(table);
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (IOException e) {
            throw new AuditException(AuditError.INTERNAL, "Cannot write the commit request: " + e.getMessage(), e);
        }
        HttpResponse<String> response = send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", JSON)
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)),
                "commit to " + table.qualifiedName());
        if (response.statusCode() == 409) {
            return Optional.empty();
        }
        if (response.statusCode() == 404) {
            throw tableNotFound(table);
        }
        requireSuccess(response, "POST " + uri.getPath());
        return Optional.of(metadataOf(response));
    }

    private URI tableUri(AuditTable table) {
        String prefix = prefix();
        return URI.create(basePath() + "/v1/" + (prefix.isEmpty() ? "" : encode(prefix) + "/") + "namespaces/"
                + encode(Tables.NAMESPACE) + "/tables/" + encode(table.tableName()));
    }

    /** The catalog's path prefix from {@code GET /v1/config}: an override wins over a default; none is usual. */
    private String prefix() {
        URI uri = URI.create(basePath() + "/v1/config");
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET(), "read the catalog configuration");
        requireSuccess(response, "GET " + uri.getPath());
        JsonNode config = readJson(response);
        JsonNode override = config.path("overrides").path("prefix");
        JsonNode fallback = config.path("defaults").path("prefix");
        return override.isTextual() ? override.asText() : fallback.isTextual() ? fallback.asText() : "";
    }

    private String basePath() {
        String base = baseUri.toString();
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String what) {
        try {
            request.timeout(timeout).header("Accept", JSON);
            if (tokens.isPresent()) {
                request.header("Authorization", tokens.get().authorization());
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw unreachable(what, e);
        } catch (HttpTimeoutException e) {
            throw new AuditException(
                    AuditError.CATALOG_UNREACHABLE,
                    "The Iceberg REST catalog at " + baseUri + " did not answer within " + timeout + " to " + what
                            + ": check that it is running, or raise " + AuditConfig.CATALOG_TIMEOUT,
                    e);
        } catch (IOException e) {
            throw unreachable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException(AuditError.INTERNAL, "Interrupted while trying to " + what, e);
        }
    }

    private AuditException unreachable(String what, IOException e) {
        return new AuditException(
                AuditError.CATALOG_UNREACHABLE,
                "Cannot reach the Iceberg REST catalog at " + baseUri + " to " + what + " ("
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                        + "): the stack must be running (fleet up), or pass --catalog-uri",
                e);
    }

    private AuditException tableNotFound(AuditTable table) {
        return new AuditException(
                AuditError.TABLE_NOT_FOUND,
                table.qualifiedName() + " does not exist in the Iceberg REST catalog at " + baseUri + ": start the"
                        + " catalog with catalog.bootstrap-tables=true (the default), or pass --catalog-uri");
    }

    private void requireSuccess(HttpResponse<String> response, String call) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return;
        }
        String message;
        try {
            JsonNode error = mapper.readTree(response.body()).path("error");
            message = error.path("type").asText("error") + ": "
                    + error.path("message").asText(response.body());
        } catch (IOException e) {
            message = response.body();
        }
        throw new AuditException(
                AuditError.CATALOG_FAILED,
                "The Iceberg REST catalog at " + baseUri + " answered " + status + " to " + call + ": " + message);
    }

    private TableMetadataView metadataOf(HttpResponse<String> response) {
        try {
            return TableMetadataView.parse(readJson(response).path("metadata"));
        } catch (IllegalArgumentException e) {
            throw new AuditException(
                    AuditError.CATALOG_FAILED,
                    "The Iceberg REST catalog at " + baseUri + " sent table metadata the audit cannot read: "
                            + e.getMessage(),
                    e);
        }
    }

    private JsonNode readJson(HttpResponse<String> response) {
        try {
            return mapper.readTree(response.body());
        } catch (IOException e) {
            throw new AuditException(
                    AuditError.CATALOG_FAILED,
                    "The Iceberg REST catalog at " + baseUri + " sent a body that is not JSON: " + e.getMessage(),
                    e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
