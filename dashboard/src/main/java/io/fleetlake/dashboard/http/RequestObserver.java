package io.fleetlake.dashboard.http;

/** Told about every request the router answered: for metrics. Must not throw and must not block. */
@FunctionalInterface
public interface RequestObserver {
    /** Observes nothing. */
    RequestObserver NONE = (route, status, nanos) -> {};

    /**
     * @param route the path template that served it, such as {@code /api/vehicles/{id}}, or {@value Router#UNMATCHED}
     * @param status the HTTP status answered
     * @param nanos the time taken to answer
     */
    void answered(String route, int status, long nanos);
}
