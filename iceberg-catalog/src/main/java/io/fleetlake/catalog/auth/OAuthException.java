package io.fleetlake.catalog.auth;

import static java.util.Objects.requireNonNull;

/**
 * A refused token request, answered in OAuth2's error format (RFC 6749 section 5.2, {@code {"error": ...,
 * "error_description": ...}}), which Iceberg's clients parse at the token endpoint instead of Iceberg's own.
 */
public final class OAuthException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The client is unknown or its secret is wrong. */
    public static final String INVALID_CLIENT = "invalid_client";

    public static final String INVALID_REQUEST = "invalid_request";
    public static final String INVALID_GRANT = "invalid_grant";
    public static final String UNSUPPORTED_GRANT_TYPE = "unsupported_grant_type";

    private final String error;
    private final int status;

    public OAuthException(String error, int status, String description) {
        super(requireNonNull(description, "description is null"));
        this.error = requireNonNull(error, "error is null");
        this.status = status;
    }

    public String error() {
        return error;
    }

    public int status() {
        return status;
    }
}
