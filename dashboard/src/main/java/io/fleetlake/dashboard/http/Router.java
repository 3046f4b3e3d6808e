package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.http.ExceptionStatuses;
import io.fleetlake.http.PathTemplate;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatches requests through the routing table and turns every failure into a JSON {@link ErrorBody} with the status
 * its {@link DashboardError} gives (anything else is {@link DashboardError#INTERNAL}, 500, through the shared {@link
 * ExceptionStatuses}). The only place that catches handler exceptions: an internal error is logged here
 * once with its stack trace, an unavailable Redis or Trino as one line.
 */
public final class Router {
    private static final Logger LOG = LoggerFactory.getLogger(Router.class);
    private static final String GET = "GET";

    /** The route label of a request no route matched. */
    public static final String UNMATCHED = "unmatched";

    /** The route label of a request refused before routing, such as one without a session. */
    public static final String REFUSED = "refused";

    private final List<Route> routes;
    private final ObjectMapper mapper;
    private final RequestObserver observer;

    public Router(List<Route> routes, ObjectMapper mapper) {
        this(routes, mapper, RequestObserver.NONE);
    }

    public Router(List<Route> routes, ObjectMapper mapper, RequestObserver observer) {
        this.routes = List.copyOf(requireNonNull(routes, "routes is null"));
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    public HttpResponse handle(HttpRequest request) {
        requireNonNull(request, "request is null");
        long started = System.nanoTime();
        String[] route = {UNMATCHED};
        HttpResponse response;
        try {
            response = dispatch(request, route);
        } catch (RuntimeException e) {
            response = failure(request, e);
        }
        observer.answered(route[0], response.status(), System.nanoTime() - started);
        return response;
    }

    /** @param matched receives the matched route's path template, for the observer */
    private HttpResponse dispatch(HttpRequest request, String[] matched) {
        List<String> segments = PathTemplate.segments(request.path());
        for (Route route : routes) {
            Optional<Map<String, String>> variables = route.match(segments);
            if (variables.isEmpty()) {
                continue;
            }
            matched[0] = route.path();
            if (!request.method().equals(GET)) {
                throw new DashboardException(
                        DashboardError.METHOD_NOT_ALLOWED,
                        "Method " + request.method() + " is not allowed for " + request.path() + ": use GET");
            }
            Reply reply = route.handler().handle(new RouteRequest(variables.get(), request.queryParameters()));
            return respond(reply);
        }
        throw new DashboardException(DashboardError.NOT_FOUND, "Nothing is served at " + request.path());
    }

    private HttpResponse respond(Reply reply) {
        if (reply instanceof Reply.Text text) {
            return new HttpResponse(HttpResponse.OK, text.contentType(), text.body());
        }
        return new HttpResponse(HttpResponse.OK, HttpResponse.JSON, write(((Reply.Json) reply).value()));
    }

    /**
     * The JSON error response for a request refused before routing (no session, no CSRF token, too many failed sign-ins,
     * ...), the same body and status table as a handler's failure; told to the observer as {@value #REFUSED}.
     */
    public HttpResponse refuse(HttpRequest request, DashboardException refusal) {
        requireNonNull(request, "request is null");
        requireNonNull(refusal, "refusal is null");
        HttpResponse response = failure(request, refusal);
        observer.answered(REFUSED, response.status(), 0);
        return response;
    }

    private HttpResponse failure(HttpRequest request, RuntimeException failure) {
        DashboardError error = failure instanceof DashboardException known ? known.error() : DashboardError.INTERNAL;
        int status = ExceptionStatuses.OWN.statusOf(failure);
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
                error == DashboardError.INTERNAL ? "Internal error: " + message + " (see the dashboard log)" : message);
        return new HttpResponse(status, HttpResponse.JSON, write(body));
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
