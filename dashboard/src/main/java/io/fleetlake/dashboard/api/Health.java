package io.fleetlake.dashboard.api;

/**
 * {@code GET /healthz}: the server answers. Redis, Trino and Flink are not probed: each has its own health check, and
 * the page reports their failures itself.
 *
 * @param status always {@code UP}
 */
record Health(String status) {
    static final Health UP = new Health("UP");
}
