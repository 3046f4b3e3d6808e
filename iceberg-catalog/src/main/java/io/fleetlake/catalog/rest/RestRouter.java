package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.catalog.auth.Authenticator;
import io.fleetlake.catalog.auth.CatalogPrincipal;
import io.fleetlake.catalog.auth.OAuthException;
import io.fleetlake.http.ExceptionStatuses;
import io.fleetlake.http.PathTemplate;
import io.fleetlake.model.catalog.CatalogRole;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatches requests through the routing table and turns every failure into an Iceberg error response through
 * {@link IcebergErrors}. This is the only place that catches handler exceptions: server errors are logged here,
 * once, with their stack trace.
 */
public final class RestRouter {
    /** The endpoint of a request no route matched. */
    public static final String UNMATCHED = "unmatched";

    private static final Logger LOG = LoggerFactory.getLogger(RestRouter.class);
    private static final ObjectMapper OAUTH_ERRORS = new ObjectMapper();

    private final List<Route> routes;
    private final ObjectMapper mapper;
    private final RequestObserver observer;
    private final Authenticator authenticator;

    RestRouter(List<Route> routes, ObjectMapper mapper) {
        this(routes, mapper, RequestObserver.NONE, Authenticator.NONE);
    }

    RestRouter(List<Route> routes, ObjectMapper mapper, RequestObserver observer) {
        this(routes, mapper, observer, Authenticator.NONE);
    }

    RestRouter(List<Route> routes, ObjectMapper mapper, RequestObserver observer, Authenticator authenticator) {
        this.routes = List.copyOf(requireNonNull(routes, "routes is null"));
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.observer = requireNonNull(observer, "observer is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
    }

    public RestResponse handle(RestRequest request) {
        requireNonNull(request, "request is null");
        long started = System.nanoTime();
        String[] endpoint = {UNMATCHED};
        RestResponse response;
        try {
            response = dispatch(request, endpoint);
        } catch (RuntimeException e) {
            response = failure(request, e);
        }
        observer.answered(endpoint[0], response.status(), System.nanoTime() - started);
        return response;
    }

    /**
     * Every request but those of public routes is authenticated first (401 otherwise, also for paths no route serves,
     * so that a stranger learns nothing about them), then checked against the role its route needs (403).
     *
     * @param endpoint receives the matched route's endpoint, for the observer
     */
    private RestResponse dispatch(RestRequest request, String[] endpoint) {
        List<String> segments = PathTemplate.segments(request.path());
        boolean pathServedForOtherMethods = false;
        for (Route route : routes) {
            Optional<Map<String, String>> variables = route.match(segments);
            if (variables.isEmpty()) {
                continue;
            }
            if (route.method() != request.method()) {
                pathServedForOtherMethods = true;
                continue;
            }
            endpoint[0] = route.method() + " " + route.endpoint().path().replace("/{prefix}", "");
            RouteRequest routeRequest = new RouteRequest(
                    variables.get(), request.queryParameters(), request.body(), request.authorization(), mapper);
            Optional<CatalogRole> required = route.access().required(routeRequest);
            if (required.isPresent()) {
                CatalogPrincipal principal = authenticator.authenticate(request.authorization());
                if (!principal.role().includes(required.get())) {
                    throw new ForbiddenException(
                            "The catalog client %s is a %s; %s %s needs the %s role",
                            principal.clientId(), principal.role(), request.method(), request.path(), required.get());
                }
            }
            return route.handler()
                    .handle(routeRequest)
                    .map(body -> RestResponse.json(RestResponse.OK, write(body)))
                    .orElseGet(RestResponse::noContent);
        }
        authenticator.authenticate(request.authorization());
        if (pathServedForOtherMethods) {
            throw new MethodNotAllowedException("Method " + request.method() + " is not allowed for " + request.path());
        }
        throw new NotFoundException("No route for %s %s", request.method(), request.path());
    }

    /** RFC 6749's error body, which Iceberg's clients expect from the token endpoint. */
    private static String oauthError(OAuthException error) {
        return OAUTH_ERRORS
                .createObjectNode()
                .put("error", error.error())
                .put("error_description", error.getMessage())
                .toString();
    }

    private String write(RESTResponse body) {
        try {
            return mapper.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot serialise " + body.getClass().getSimpleName(), e);
        }
    }

    private static RestResponse failure(RestRequest request, RuntimeException error) {
        if (error instanceof OAuthException refused) {
            LOG.debug("Token request refused: {}", refused.error());
            return RestResponse.json(refused.status(), oauthError(refused));
        }
        ErrorResponse response = IcebergErrors.errorResponse(error);
        if (response.code() >= ExceptionStatuses.INTERNAL_SERVER_ERROR) {
            LOG.error("{} {} failed with status {}", request.method(), request.path(), response.code(), error);
        } else {
            LOG.debug(
                    "{} {} rejected with status {}: {}",
                    request.method(),
                    request.path(),
                    response.code(),
                    error.toString());
        }
        return RestResponse.json(response.code(), ErrorResponseParser.toJson(response));
    }
}
