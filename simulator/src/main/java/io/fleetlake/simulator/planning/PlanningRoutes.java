package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.http.PathTemplate;
import io.fleetlake.model.planning.PlanningApi;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing table of the planning API ({@link PlanningApi}) and the one place that turns failures into error
 * responses: a {@link PlanningApiException} answers with its {@link ApiError}, anything else is an internal error,
 * logged here once with its stack trace. Error bodies are {@code {"error": "NOT_FOUND", "status": 404, "message":
 * "..."}}.
 */
public final class PlanningRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(PlanningRoutes.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Endpoint> endpoints;

    private PlanningRoutes(PlanningHandlers handlers) {
        this.endpoints = List.of(
                new Endpoint("GET", PlanningApi.ROUTES_PATH, handlers::routes),
                new Endpoint("GET", PlanningApi.VEHICLE_ROUTE_PATH, handlers::vehicleRoute),
                new Endpoint("PUT", PlanningApi.VEHICLE_ROUTE_PATH, handlers::assignRoute),
                new Endpoint("GET", PlanningApi.HEALTH_PATH, handlers::health));
    }

    /** The routes over a directory. */
    public static PlanningRoutes over(RouteDirectory directory) {
        return new PlanningRoutes(new PlanningHandlers(directory));
    }

    /** Answers a request; never throws. */
    public ApiResponse handle(ApiRequest request) {
        requireNonNull(request, "request is null");
        try {
            return dispatch(request);
        } catch (PlanningApiException e) {
            LOG.debug("{} {} refused with {}: {}", request.method(), request.path(), e.error(), e.getMessage());
            return error(e.error(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", request.method(), request.path(), e);
            return error(ApiError.INTERNAL_ERROR, "The planning API failed: " + e + "; see its log");
        }
    }

    private ApiResponse dispatch(ApiRequest request) {
        List<String> segments = PathTemplate.segments(request.path());
        boolean servedForOtherMethods = false;
        for (Endpoint endpoint : endpoints) {
            Optional<Map<String, String>> parameters = endpoint.match(segments);
            if (parameters.isEmpty()) {
                continue;
            }
            if (!endpoint.method().equals(request.method())) {
                servedForOtherMethods = true;
                continue;
            }
            return endpoint.handler().handle(new EndpointRequest(parameters.get(), request.body()));
        }
        if (servedForOtherMethods) {
            throw new PlanningApiException(
                    ApiError.METHOD_NOT_ALLOWED,
                    "Method " + request.method() + " is not allowed for " + request.path());
        }
        throw new PlanningApiException(
                ApiError.NOT_FOUND,
                "No endpoint " + request.method() + " " + request.path() + "; the planning API serves GET "
                        + PlanningApi.ROUTES_PATH + ", GET and PUT " + PlanningApi.VEHICLE_ROUTE_PATH + " and GET "
                        + PlanningApi.HEALTH_PATH);
    }

    /** The error body of {@code error}; also for what the HTTP layer refuses before routing. */
    static ApiResponse error(ApiError error, String message) {
        ObjectNode body = JSON.createObjectNode()
                .put("error", error.name())
                .put("status", error.status())
                .put("message", message);
        try {
            return new ApiResponse(error.status(), Optional.of(JSON.writeValueAsString(body)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write an error body", e);
        }
    }
}
