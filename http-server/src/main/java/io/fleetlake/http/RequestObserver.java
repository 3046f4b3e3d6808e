package io.fleetlake.http;

/** Told about every request a {@link RouteTable} answered: for metrics. Must not throw and must not block. */
@FunctionalInterface
public interface RequestObserver {
    /** Observes nothing. */
    RequestObserver NONE = (route, status, nanos) -> {};

    /**
     * @param route the label of the route that served it, one value per route rather than per path (such as {@code
     *     GET /v1/namespaces/{namespace}} or {@code /api/vehicles/{id}}), or {@value RouteTable#UNMATCHED}, or
     *     {@value RouteTable#REFUSED}
     * @param status the HTTP status answered
     * @param nanos the time taken to answer
     */
    void answered(String route, int status, long nanos);
}
