package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A server's routing table and the one path every request takes through it: the first route whose template matches
 * the path and whose method is the request's serves it; a path that routes serve only for other methods is the
 * server's 405, any other its 404. Every failure, a handler's included, maps to a status through the server's {@link
 * ExceptionStatuses} and to the server's own error body through its {@link Responder}: this is the only place that
 * catches handler exceptions. The observer hears of every answer with its route's label.
 *
 * @param <H> the server's handler type
 * @param <R> the server's response type
 */
public final class RouteTable<H, R> {
    /** The label of a request no route matched. */
    public static final String UNMATCHED = "unmatched";

    /** The label of a request refused before routing, such as one without a session. */
    public static final String REFUSED = "refused";

    private final List<Route<H>> routes;
    private final ExceptionStatuses statuses;
    private final Responder<H, R> responder;
    private final RequestObserver observer;

    public RouteTable(
            List<Route<H>> routes, ExceptionStatuses statuses, Responder<H, R> responder, RequestObserver observer) {
        this.routes = List.copyOf(requireNonNull(routes, "routes is null"));
        this.statuses = requireNonNull(statuses, "statuses is null");
        this.responder = requireNonNull(responder, "responder is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /** Answers a request; never throws. */
    public R handle(HttpRequest request) {
        requireNonNull(request, "request is null");
        long started = System.nanoTime();
        String[] label = {UNMATCHED};
        R response;
        try {
            response = dispatch(request, label);
        } catch (RuntimeException e) {
            response = responder.failure(request, e, statuses.statusOf(e));
        }
        observer.answered(label[0], responder.status(response), System.nanoTime() - started);
        return response;
    }

    /** The error response for a request refused before routing, observed as {@value #REFUSED}. */
    public R refuse(HttpRequest request, RuntimeException refusal) {
        requireNonNull(request, "request is null");
        requireNonNull(refusal, "refusal is null");
        R response = responder.failure(request, refusal, statuses.statusOf(refusal));
        observer.answered(REFUSED, responder.status(response), 0);
        return response;
    }

    /** @param label receives the label of the route that answers, for the observer */
    private R dispatch(HttpRequest request, String[] label) {
        List<String> segments = PathTemplate.segments(request.path());
        Optional<Route<H>> servedForOtherMethods = Optional.empty();
        for (Route<H> route : routes) {
            Optional<Map<String, String>> variables =
                    route.path().match(segments, responder::literalForm, responder::variableForm);
            if (variables.isEmpty()) {
                continue;
            }
            if (route.method().equals(request.method())) {
                label[0] = responder.label(route);
                return responder.serve(request, route.handler(), variables.get());
            }
            if (servedForOtherMethods.isEmpty()) {
                servedForOtherMethods = Optional.of(route);
                label[0] = responder.otherMethodLabel(route);
            }
        }
        throw responder.unmatched(request, servedForOtherMethods);
    }

    /** What differs between the servers: how a handler is called, what is refused how, the error body. */
    public interface Responder<H, R> {
        /** Calls the handler; may throw, as the handler may. */
        R serve(HttpRequest request, H handler, Map<String, String> variables);

        /**
         * The failure to answer a request no route serves with: the server's 405 when a route serves the path for
         * another method, its 404 otherwise.
         */
        RuntimeException unmatched(HttpRequest request, Optional<Route<H>> servedForOtherMethods);

        /** The server's error body for a failure, with the status {@link ExceptionStatuses} gave it. */
        R failure(HttpRequest request, RuntimeException failure, int status);

        int status(R response);

        /** The observer's label of a route. */
        default String label(Route<H> route) {
            return route.path().template();
        }

        /** The observer's label of a request whose path a route serves for another method. */
        default String otherMethodLabel(Route<H> route) {
            return UNMATCHED;
        }

        /** What a path segment is compared with a fixed segment of a template as (see {@link PathTemplate}). */
        default String literalForm(String segment) {
            return segment;
        }

        /** What a path segment is bound to a variable as; may throw to refuse it. */
        default String variableForm(String segment) {
            return segment;
        }
    }
}
