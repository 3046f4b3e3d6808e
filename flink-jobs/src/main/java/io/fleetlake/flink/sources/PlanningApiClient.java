package io.fleetlake.flink.sources;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Fetches every vehicle's route from the planning API ({@code GET /v1/routes}) without blocking the caller: the
 * request, the wait and the parsing run on the HTTP client's threads. Each request carries the API's bearer token, when
 * one is configured.
 */
final class PlanningApiClient {
    private static final int MAX_BODY_IN_MESSAGE = 200;

    private final URI routesUri;
    private final Optional<String> token;
    private final Duration timeout;
    private final Clock clock;
    private final HttpClient http;

    PlanningApiClient(URI planningUri, Optional<String> token, Duration timeout, Clock clock) {
        requireNonNull(planningUri, "planningUri is null");
        this.routesUri = routesUri(planningUri);
        this.token = requireNonNull(token, "token is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /** The routes endpoint under a base URI that may carry a path prefix. */
    static URI routesUri(URI planningUri) {
        String base = planningUri.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + PlanningApi.ROUTES_PATH);
    }

    URI routesUri() {
        return routesUri;
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * Starts one fetch.
     *
     * @return completes with the routes, or exceptionally: with {@link java.net.http.HttpTimeoutException} when the
     *     API did not answer within the timeout, another {@link java.io.IOException} when it cannot be reached, or
     *     {@link PlanningApiException} when its answer is not a list of routes
     */
    CompletableFuture<RoutePoll> fetch() {
        HttpRequest.Builder request = HttpRequest.newBuilder(routesUri)
                .timeout(timeout)
                .header("Accept", "application/json")
                .GET();
        token.ifPresent(present -> request.header("Authorization", "Bearer " + present));
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(this::toPoll);
    }

    private RoutePoll toPoll(HttpResponse<String> response) {
        if (response.statusCode() == 401) {
            throw new PlanningApiException("refused the request (HTTP 401): set " + EnrichmentConfig.PLANNING_TOKEN
                    + " to the planning API's token" + (token.isPresent() ? " (the one sent is not it)" : ""));
        }
        if (response.statusCode() != 200) {
            throw new PlanningApiException(
                    "answered HTTP " + response.statusCode() + ": " + abbreviate(response.body()));
        }
        try {
            return new RoutePoll(clock.instant(), RouteJson.readAll(response.body()));
        } catch (IllegalArgumentException e) {
            throw new PlanningApiException("answered something that is not a list of routes: " + e.getMessage(), e);
        }
    }

    private static String abbreviate(String body) {
        String oneLine = body.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_BODY_IN_MESSAGE ? oneLine : oneLine.substring(0, MAX_BODY_IN_MESSAGE) + "...";
    }

    /** The planning API answered, but not with routes. */
    static final class PlanningApiException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PlanningApiException(String message) {
            super(message);
        }

        PlanningApiException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
