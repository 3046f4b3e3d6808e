package io.fleetlake.connect.client;

/**
 * The principals of the ingest worker's REST API (ingest-connect's {@code ConnectRestSecurityExtension}): their names
 * are fixed, their passwords are the worker's {@code connect.rest-admin-password} and {@code
 * connect.rest-monitor-password}.
 */
public final class ConnectRestPrincipals {
    /**
     * Creates, updates, deletes, pauses and restarts connectors: the worker itself (it registers and supervises its
     * connector through its own REST API) and an operator.
     */
    public static final String ADMIN = "admin";

    /** Reads only ({@code GET}, {@code HEAD}): {@code fleet status}, the exporter, dashboards. */
    public static final String MONITOR = "monitor";

    private ConnectRestPrincipals() {}
}
