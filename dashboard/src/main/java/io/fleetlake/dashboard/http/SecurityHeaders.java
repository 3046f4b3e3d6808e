package io.fleetlake.dashboard.http;

import java.util.Map;

/**
 * The headers every response of the dashboard carries. The page loads only its own script and styles (no inline
 * script or style, no third-party origin), so the policy allows {@code 'self'} and nothing else; it may not be framed
 * (clickjacking of the sign-out or any later action), and a browser must not guess a content type or leak the page's
 * address to another site.
 */
public final class SecurityHeaders {
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    public static final Map<String, String> ALL = Map.of(
            "Content-Security-Policy", CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer",
            "X-Frame-Options", "DENY");

    private SecurityHeaders() {}
}
