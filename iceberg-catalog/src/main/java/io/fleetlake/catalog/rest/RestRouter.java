package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.catalog.auth.Authenticator;
import io.fleetlake.catalog.auth.CatalogPrincipal;
import io.fleetlake.catalog.auth.OAuthException;
import io.fleetlake.http.ExceptionStatuses;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JsonResponse;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.http.Route;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.http.RouteTable;
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
 * The catalog's routes on the shared {@link RouteTable}, which turns every failure into an Iceberg error response
 * through {@link IcebergErrors} (a refused token request into RFC 6749's): server errors are logged once, with their
 * stack trace. The observer's label of a route is its endpoint, such as {@code GET /v1/namespaces/{namespace}}.
 */
public final class RestRouter {
    private static final Logger LOG = LoggerFactory.getLogger(RestRouter.class);
    private static final ObjectMapper OAUTH_ERRORS = new ObjectMapper();

    private final ObjectMapper mapper;
    private final Authenticator authenticator;
    private final RouteTable<EndpointRoute, JsonResponse> table;

    RestRouter(List<Route<EndpointRoute>> routes, ObjectMapper mapper, RequestObserver observer) {
        this(routes, mapper, observer, Authenticator.NONE);
    }

    RestRouter(
            List<Route<EndpointRoute>> routes,
            ObjectMapper mapper,
            RequestObserver observer,
            Authenticator authenticator) {
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.table = new RouteTable<>(routes, IcebergErrors.STATUSES, new Responses(), observer);
    }

    public JsonResponse handle(HttpRequest request) {
        requireNonNull(request, "request is null");
        return table.handle(request);
    }

    private String write(RESTResponse body) {
        try {
            return mapper.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot serialise " + body.getClass().getSimpleName(), e);
        }
    }

    /**
     * Every request but those of public routes is authenticated first (401 otherwise, also for paths no route serves,
     * so that a stranger learns nothing about them), then checked against the role its route needs (403).
     */
    private final class Responses implements RouteTable.Responder<EndpointRoute, JsonResponse> {
        @Override
        public JsonResponse serve(HttpRequest request, EndpointRoute route, Map<String, String> variables) {
            IcebergRequest routeRequest = new IcebergRequest(
                    new RouteRequest(variables, request.queryParameters(), request.body()),
                    request.header("Authorization"),
                    mapper);
            Optional<CatalogRole> required = route.access().required(routeRequest);
            if (required.isPresent()) {
                CatalogPrincipal principal = authenticator.authenticate(request.header("Authorization"));
                if (!principal.role().includes(required.get())) {
                    throw new ForbiddenException(
                            "The catalog client %s is a %s; %s %s needs the %s role",
                            principal.clientId(), principal.role(), request.method(), request.path(), required.get());
                }
            }
            return route.handler()
                    .handle(routeRequest)
                    .map(body -> JsonResponse.json(JsonResponse.OK, write(body)))
                    .orElseGet(JsonResponse::noContent);
        }

        @Override
        public RuntimeException unmatched(HttpRequest request, Optional<Route<EndpointRoute>> servedForOtherMethods) {
            authenticator.authenticate(request.header("Authorization"));
            if (servedForOtherMethods.isPresent()) {
                return new MethodNotAllowedException(
                        "Method " + request.method() + " is not allowed for " + request.path());
            }
            return new NotFoundException("No route for %s %s", request.method(), request.path());
        }

        @Override
        public JsonResponse failure(HttpRequest request, RuntimeException error, int status) {
            if (error instanceof OAuthException refused) {
                LOG.debug("Token request refused: {}", refused.error());
                // RFC 6749's error body, which Iceberg's clients expect from the token endpoint.
                return JsonResponse.json(
                        refused.status(),
                        OAUTH_ERRORS
                                .createObjectNode()
                                .put("error", refused.error())
                                .put("error_description", refused.getMessage())
                                .toString());
            }
            ErrorResponse response = IcebergErrors.errorResponse(error);
            if (status >= ExceptionStatuses.INTERNAL_SERVER_ERROR) {
                LOG.error("{} {} failed with status {}", request.method(), request.path(), status, error);
            } else {
                LOG.debug(
                        "{} {} rejected with status {}: {}",
                        request.method(),
                        request.path(),
                        status,
                        error.toString());
            }
            return JsonResponse.json(status, ErrorResponseParser.toJson(response));
        }

        @Override
        public int status(JsonResponse response) {
            return response.status();
        }

        @Override
        public String label(Route<EndpointRoute> route) {
            return route.method() + " " + route.path().template();
        }
    }
}
