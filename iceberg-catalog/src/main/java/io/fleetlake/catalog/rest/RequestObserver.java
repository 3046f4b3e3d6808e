package io.fleetlake.catalog.rest;

/** Told about every request the router answered: for metrics. Must not throw and must not block. */
@FunctionalInterface
public interface RequestObserver {
    /** Observes nothing. */
    RequestObserver NONE = (endpoint, status, nanos) -> {};

    /**
     * @param endpoint the route that served it, as {@code GET /v1/namespaces/{namespace}/tables/{table}}, or {@value
     *     RestRouter#UNMATCHED} when none matched
     * @param status the HTTP status answered
     * @param nanos the time taken to answer
     */
    void answered(String endpoint, int status, long nanos);
}
