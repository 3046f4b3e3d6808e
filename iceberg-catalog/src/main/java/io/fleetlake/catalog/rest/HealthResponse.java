package io.fleetlake.catalog.rest;

import org.apache.iceberg.rest.RESTResponse;

/** The health check's answer, {@code {"status":"ok"}}: 200, as every probe of the stack expects. */
final class HealthResponse implements RESTResponse {
    static final HealthResponse OK = new HealthResponse();

    @SuppressWarnings("unused") // serialised by field
    private final String status = "ok";

    private HealthResponse() {}

    @Override
    public void validate() {}
}
