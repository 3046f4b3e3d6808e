package io.fleetlake.http;

/**
 * Handles the requests of one route. Handlers are stateless; they refuse a request by throwing, and the {@link
 * RouteTable} maps what they throw to a status and the server's error body.
 *
 * @param <T> what the server's handlers answer with
 */
@FunctionalInterface
public interface RouteHandler<T> {
    T handle(RouteRequest request);
}
