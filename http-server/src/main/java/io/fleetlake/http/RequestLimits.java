package io.fleetlake.http;

/**
 * What one server lets its clients make it hold at once: the bodies it reads and the requests it serves. Each server
 * reads them from its own keys ({@code <component>.max-request-bytes}, {@code <component>.max-concurrent-requests})
 * and enforces them through a {@link RequestAdmission}.
 *
 * @param maxRequestBytes the largest request body accepted; a larger one is refused (413)
 * @param maxConcurrentRequests requests served at once; one more is refused at once (503)
 */
public record RequestLimits(long maxRequestBytes, int maxConcurrentRequests) {
    public RequestLimits {
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1, was " + maxRequestBytes);
        }
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException(
                    "maxConcurrentRequests must be at least 1, was " + maxConcurrentRequests);
        }
    }
}
