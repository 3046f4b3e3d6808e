package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.http.ExceptionStatuses;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.PathTemplate;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.http.Route;
import io.fleetlake.http.RouteHandler;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.http.RouteTable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's routes on the shared {@link RouteTable}, which turns every failure into a JSON {@link ErrorBody}
 * with the status its {@link DashboardError} gives (anything else is {@link DashboardError#INTERNAL}, 500). An
 * internal error is logged once with its stack trace, an unavailable Redis or Trino as one line. Every route of the
 * dashboard is read-only ({@link Route#get}); path segments are compared and bound decoded.
 */
public final class Router {
    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final ObjectMapper mapper;
    private final RouteTable<RouteHandler<Reply>, HttpResponse> table;

    public Router(List<Route<RouteHandler<Reply>>> routes, ObjectMapper mapper) {
        this(routes, mapper, RequestObserver.NONE);
    }

    public Router(List<Route<RouteHandler<Reply>>> routes, ObjectMapper mapper, RequestObserver observer) {
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.table = new RouteTable<>(routes, ExceptionStatuses.OWN, new Responses(), observer);
    }

    public HttpResponse handle(HttpRequest request) {
        requireNonNull(request, "request is null");
        return table.handle(request);
    }

    /**
     * The JSON error response for a request refused before routing (no session, no CSRF token, too many failed sign-ins,
     * ...), the same body and status table as a handler's failure; told to the observer as {@value
     * RouteTable#REFUSED}.
     */
    public HttpResponse refuse(HttpRequest request, DashboardException refusal) {
        return table.refuse(request, refusal);
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** What the dashboard answers through the shared table: its handlers' replies and its error bodies. */
    private final class Responses implements RouteTable.Responder<RouteHandler<Reply>, HttpResponse> {
        @Override
        public HttpResponse serve(HttpRequest request, RouteHandler<Reply> handler, Map<String, String> variables) {
            Reply reply = handler.handle(new RouteRequest(variables, request.queryParameters(), request.body()));
            if (reply instanceof Reply.Text text) {
                return new HttpResponse(HttpResponse.OK, text.contentType(), text.body());
            }
            return new HttpResponse(HttpResponse.OK, HttpResponse.JSON, write(((Reply.Json) reply).value()));
        }

        @Override
        public RuntimeException unmatched(
                HttpRequest request, Optional<Route<RouteHandler<Reply>>> servedForOtherMethods) {
            return servedForOtherMethods
                    .map(route -> new DashboardException(
                            DashboardError.METHOD_NOT_ALLOWED,
                            "Method " + request.method() + " is not allowed for " + request.path() + ": use "
                                    + route.method()))
                    .orElseGet(() ->
                            new DashboardException(DashboardError.NOT_FOUND, "Nothing is served at " + request.path()));
        }

        @Override
        public HttpResponse failure(HttpRequest request, RuntimeException failure, int status) {
            DashboardError error =
                    failure instanceof DashboardException known ? known.error() : DashboardError.INTERNAL;
            String message = Optional.ofNullable(failure.getMessage())
                    .orElse(failure.getClass().getSimpleName());
            switch (error.category()) {
                case INTERNAL ->
                    LOG.error("{} {} failed with status {}", request.method(), request.path(), status, failure);
                case EXTERNAL ->
                    LOG.warn("{} {} failed with status {}: {}", request.method(), request.path(), status, message);
                case USER ->
                    LOG.debug("{} {} rejected with status {}: {}", request.method(), request.path(), status, message);
            }
            ErrorBody body = new ErrorBody(
                    status,
                    error.name(),
                    error.category().name(),
                    error == DashboardError.INTERNAL
                            ? "Internal error: " + message + " (see the dashboard log)"
                            : message);
            return new HttpResponse(status, HttpResponse.JSON, write(body));
        }

        @Override
        public int status(HttpResponse response) {
            return response.status();
        }

        /** A request for a served path by another method is counted under the route it tried. */
        @Override
        public String otherMethodLabel(Route<RouteHandler<Reply>> route) {
            return route.path().template();
        }

        @Override
        public String literalForm(String segment) {
            return PathTemplate.decode(segment);
        }

        @Override
        public String variableForm(String segment) {
            return PathTemplate.decode(segment);
        }
    }
}
