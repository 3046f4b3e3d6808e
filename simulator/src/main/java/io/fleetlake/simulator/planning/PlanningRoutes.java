package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.http.ExceptionStatuses;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JsonResponse;
import io.fleetlake.http.PathTemplate;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.http.Route;
import io.fleetlake.http.RouteHandler;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.http.RouteTable;
import io.fleetlake.model.planning.PlanningApi;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing table of the planning API ({@link PlanningApi}) and its error bodies, on the shared {@link RouteTable}:
 * a {@link PlanningApiException} answers with its {@link ApiError}, anything else is an internal error, logged here
 * once with its stack trace. Error bodies are {@code {"error": "NOT_FOUND", "status": 404, "message": "..."}}.
 */
public final class PlanningRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(PlanningRoutes.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RouteTable<RouteHandler<JsonResponse>, JsonResponse> table;

    private PlanningRoutes(PlanningHandlers handlers) {
        this.table = new RouteTable<>(
                List.of(
                        Route.get(PlanningApi.ROUTES_PATH, handlers::routes),
                        Route.get(PlanningApi.VEHICLE_ROUTE_PATH, handlers::vehicleRoute),
                        Route.of("PUT", PlanningApi.VEHICLE_ROUTE_PATH, handlers::assignRoute),
                        Route.get(PlanningApi.HEALTH_PATH, handlers::health)),
                ExceptionStatuses.OWN,
                new Responses(),
                RequestObserver.NONE);
    }

    /** The routes over a directory. */
    public static PlanningRoutes over(RouteDirectory directory) {
        return new PlanningRoutes(new PlanningHandlers(directory));
    }

    /** Answers a request; never throws. */
    public JsonResponse handle(HttpRequest request) {
        requireNonNull(request, "request is null");
        return table.handle(request);
    }

    /** What the planning API answers through the shared table: its handlers' responses and its error bodies. */
    private static final class Responses implements RouteTable.Responder<RouteHandler<JsonResponse>, JsonResponse> {
        @Override
        public JsonResponse serve(
                HttpRequest request, RouteHandler<JsonResponse> handler, Map<String, String> variables) {
            return handler.handle(new RouteRequest(variables, Map.of(), request.body()));
        }

        @Override
        public RuntimeException unmatched(
                HttpRequest request, Optional<Route<RouteHandler<JsonResponse>>> servedForOtherMethods) {
            if (servedForOtherMethods.isPresent()) {
                return new PlanningApiException(
                        ApiError.METHOD_NOT_ALLOWED,
                        "Method " + request.method() + " is not allowed for " + request.path());
            }
            return new PlanningApiException(
                    ApiError.NOT_FOUND,
                    "No endpoint " + request.method() + " " + request.path() + "; the planning API serves GET "
                            + PlanningApi.ROUTES_PATH + ", GET and PUT " + PlanningApi.VEHICLE_ROUTE_PATH + " and GET "
                            + PlanningApi.HEALTH_PATH);
        }

        @Override
        public JsonResponse failure(HttpRequest request, RuntimeException failure, int status) {
            if (failure instanceof PlanningApiException refused) {
                LOG.debug(
                        "{} {} refused with {}: {}",
                        request.method(),
                        request.path(),
                        refused.error(),
                        refused.getMessage());
                return error(refused.error(), refused.getMessage());
            }
            LOG.error("{} {} failed", request.method(), request.path(), failure);
            return error(ApiError.INTERNAL_ERROR, "The planning API failed: " + failure + "; see its log");
        }

        @Override
        public int status(JsonResponse response) {
            return response.status();
        }

        /** Path parameters are URL-decoded; a malformed one is the client's error. */
        @Override
        public String variableForm(String segment) {
            try {
                return PathTemplate.decode(segment);
            } catch (IllegalArgumentException e) {
                throw new PlanningApiException(
                        ApiError.BAD_REQUEST, "Malformed percent-encoding in the path segment '" + segment + "'", e);
            }
        }
    }

    /** The error body of {@code error}; also for what the HTTP layer refuses before routing. */
    static JsonResponse error(ApiError error, String message) {
        ObjectNode body = JSON.createObjectNode()
                .put("error", error.name())
                .put("status", error.status())
                .put("message", message);
        try {
            return new JsonResponse(error.status(), Optional.of(JSON.writeValueAsString(body)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write an error body", e);
        }
    }
}
