package io.fleetlake.dashboard.security;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.http.FailedAttemptLimiter;
import io.fleetlake.common.http.FormFields;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.http.Router;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.identity.PasswordHash;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every request passes before the {@link Router}: sign-in, sessions and CSRF protection. In this order:
 *
 * <ol>
 *   <li>{@code GET /healthz} and {@code GET /dashboard.css} (the sign-in page's styles) are public;
 *   <li>{@code GET /sign-in} serves the sign-in form, with a sign-in token in a form field and in a cookie of its own
 *       ({@value #SIGN_IN_COOKIE}, path {@code /sign-in}), so that another site cannot sign a browser in to an account
 *       of its choosing;
 *   <li>{@code POST /sign-in}: 429 when the address failed {@code dashboard.sign-in-max-failures} times within the
 *       window (whatever it sends now); 403 without the matching sign-in token; 401 for an unknown user or a wrong
 *       password (counted as a failure; which of the two is not said); else a session and its cookie
 *       ({@value #SESSION_COOKIE}: {@code HttpOnly; SameSite=Strict}, {@code Secure} when configured) and a redirect to
 *       the page;
 *   <li>a session ends when its user's password changes or the user is removed (the operators file is read on every
 *       request);
 *   <li>without a live session: a redirect to {@code /sign-in} for a browser's navigation (GET accepting HTML, not
 *       under {@code /api/}), else 401 (JSON);
 *   <li>a state-changing request (anything but GET and HEAD) without the session's CSRF token, in the {@value
 *       #CSRF_HEADER} header or the {@value #CSRF_FIELD} form field: 403. SameSite cookies alone are not enough (older
 *       browsers, same-site subdomains);
 *   <li>{@code GET /api/session}: who is signed in and the CSRF token, for the page's sign-out form; {@code POST
 *       /sign-out} ends the session.
 * </ol>
 *
 * Passwords, session ids and tokens are never logged.
 */
public final class SignInGate {
    private static final Logger LOG = LoggerFactory.getLogger(SignInGate.class);

    static final String SESSION_COOKIE = "fleet_session";
    static final String SIGN_IN_COOKIE = "fleet_sign_in";
    static final String CSRF_HEADER = "X-CSRF-Token";
    static final String CSRF_FIELD = "csrf";
    static final String SIGN_IN_PATH = "/sign-in";
    static final String SIGN_OUT_PATH = "/sign-out";
    static final String SESSION_PATH = "/api/session";

    private static final Set<String> PUBLIC_GETS = Set.of("/healthz", "/dashboard.css");
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD");
    /** Compared against when the user is unknown, so that an unknown user costs a hash as a known one does. */
    private static final PasswordHash UNKNOWN_USER = PasswordHash.of(Sessions.randomToken(), new SecureRandom());

    private final DashboardSecurityConfig.Operators operators;
    private final Sessions sessions;
    private final FailedAttemptLimiter failures;
    private final boolean secureCookie;
    private final SignInPage page;
    private final ObjectMapper mapper;

    private SignInGate(
            DashboardSecurityConfig.Operators operators,
            Sessions sessions,
            FailedAttemptLimiter failures,
            boolean secureCookie,
            ObjectMapper mapper) {
        this.operators = operators;
        this.sessions = sessions;
        this.failures = failures;
        this.secureCookie = secureCookie;
        this.page = SignInPage.load();
        this.mapper = mapper;
    }

    public static SignInGate of(DashboardSecurityConfig config, Clock clock, ObjectMapper mapper) {
        requireNonNull(config, "config is null");
        requireNonNull(clock, "clock is null");
        return new SignInGate(
                config.operators(),
                new Sessions(config.sessionIdleTimeout(), config.sessionLifetime(), clock),
                new FailedAttemptLimiter(config.signInMaxFailures(), config.signInFailureWindow(), clock),
                config.secureCookie(),
                requireNonNull(mapper, "mapper is null"));
    }

    /** Answers the request itself or hands it to {@code router}. */
    public HttpResponse handle(HttpRequest request, Router router) {
        requireNonNull(request, "request is null");
        requireNonNull(router, "router is null");
        String method = request.method();
        String path = request.path();
        boolean safe = SAFE_METHODS.contains(method);
        if (safe && PUBLIC_GETS.contains(path)) {
            return router.handle(request);
        }
        if (path.equals(SIGN_IN_PATH)) {
            return safe ? signInForm(request, 200, "") : signIn(request, router);
        }
        Optional<Sessions.Session> session =
                cookie(request, SESSION_COOKIE).flatMap(sessions::use).filter(this::passwordUnchanged);
        if (session.isEmpty()) {
            if (safe && !path.startsWith("/api/") && wantsPage(request)) {
                return HttpResponse.seeOther(SIGN_IN_PATH);
            }
            return router.refuse(
                    request,
                    new DashboardException(
                            DashboardError.UNAUTHORIZED,
                            "Sign in first at " + SIGN_IN_PATH + " (no session, or it expired or was signed out)"));
        }
        if (!safe && !carriesCsrfToken(request, session.get())) {
            LOG.warn("Refused {} {} from {}: no CSRF token of the session", method, path, request.remoteAddress());
            return router.refuse(
                    request,
                    new DashboardException(
                            DashboardError.CSRF_TOKEN_MISSING,
                            "A state-changing request needs the session's CSRF token in the " + CSRF_HEADER
                                    + " header or the '" + CSRF_FIELD + "' form field (see " + SESSION_PATH + ")"));
        }
        if (path.equals(SIGN_OUT_PATH) && !safe) {
            sessions.end(session.get().id());
            LOG.info("{} signed out", session.get().user());
            return HttpResponse.seeOther(SIGN_IN_PATH).withHeader("Set-Cookie", expired(SESSION_COOKIE, "/"));
        }
        if (path.equals(SESSION_PATH) && safe) {
            return new HttpResponse(
                    HttpResponse.OK,
                    HttpResponse.JSON,
                    json(Map.of(
                            "user",
                            session.get().user(),
                            "csrf_token",
                            session.get().csrfToken())));
        }
        return router.handle(request);
    }

    /** Ends a session whose user was removed or got a new password since signing in ({@code fleet dashboard-password}). */
    private boolean passwordUnchanged(Sessions.Session session) {
        boolean unchanged = operators
                .hash(session.user())
                .map(hash -> hash.encoded().equals(session.passwordHash()))
                .orElse(false);
        if (!unchanged) {
            sessions.end(session.id());
            LOG.info("Ended a session of {}: the password changed or the user was removed", session.user());
        }
        return unchanged;
    }

    private HttpResponse signIn(HttpRequest request, Router router) {
        String address = request.remoteAddress();
        if (failures.blocked(address)) {
            long seconds = Math.max(1, failures.retryAfter(address).toSeconds());
            LOG.warn("Refused a sign-in from {}: too many failed attempts", address);
            return signInForm(
                            request, 429, "Too many failed sign-ins from your address: try again in " + seconds + " s.")
                    .withHeader("Retry-After", Long.toString(seconds));
        }
        Map<String, String> form;
        try {
            form = FormFields.decode(request.body());
        } catch (IllegalArgumentException e) {
            return router.refuse(request, new DashboardException(DashboardError.INVALID_PARAMETER, e.getMessage(), e));
        }
        Optional<String> expected = cookie(request, SIGN_IN_COOKIE);
        if (expected.isEmpty() || !equal(form.get(CSRF_FIELD), expected.get())) {
            LOG.warn("Refused a sign-in from {}: no matching sign-in token", address);
            return signInForm(request, 403, "The sign-in form expired or was not this site's: sign in again.");
        }
        String user = form.getOrDefault("user", "");
        String password = form.getOrDefault("password", "");
        Optional<PasswordHash> hash = operators.hash(user);
        boolean matches = hash.orElse(UNKNOWN_USER).matches(password);
        if (hash.isEmpty() || !matches) {
            failures.failed(address);
            LOG.warn("Failed sign-in from {}", address);
            return signInForm(request, 401, "Wrong user name or password.");
        }
        Sessions.Session session = sessions.start(user, hash.get().encoded());
        LOG.info("{} signed in from {}", user, address);
        return HttpResponse.seeOther("/").withHeader("Set-Cookie", cookie(SESSION_COOKIE, session.id(), "/", ""));
    }

    /**
     * The form with the browser's sign-in token, a new one when it has none: a second request for the form (another
     * tab, or the browser's own for a favicon redirected here) must not invalidate the form already shown.
     */
    private HttpResponse signInForm(HttpRequest request, int status, String message) {
        String token = cookie(request, SIGN_IN_COOKIE)
                .filter(existing -> existing.matches("[A-Za-z0-9_-]{43}"))
                .orElseGet(Sessions::randomToken);
        // Ten minutes to fill the form in; a sign-in after that gets a new form.
        return new HttpResponse(status, HttpResponse.HTML, page.render(token, message))
                .withHeader("Set-Cookie", cookie(SIGN_IN_COOKIE, token, SIGN_IN_PATH, "; Max-Age=600"));
    }

    /** A browser navigating (HTML accepted), not a script's or an image's request: those get 401. */
    private static boolean wantsPage(HttpRequest request) {
        return request.header("Accept")
                .map(accept -> accept.contains("text/html"))
                .orElse(false);
    }

    private String cookie(String name, String value, String path, String extra) {
        return name + "=" + value + "; Path=" + path + "; HttpOnly; SameSite=Strict" + extra
                + (secureCookie ? "; Secure" : "");
    }

    private String expired(String name, String path) {
        return cookie(name, "", path, "; Max-Age=0");
    }

    private static boolean carriesCsrfToken(HttpRequest request, Sessions.Session session) {
        Optional<String> header = request.header(CSRF_HEADER);
        if (header.isPresent()) {
            return equal(header.get(), session.csrfToken());
        }
        try {
            return equal(FormFields.decode(request.body()).get(CSRF_FIELD), session.csrfToken());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean equal(String given, String expected) {
        return given != null
                && MessageDigest.isEqual(
                        given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    /** A cookie of the {@code Cookie} header. */
    static Optional<String> cookie(HttpRequest request, String name) {
        return request.header("Cookie").flatMap(header -> {
            for (String pair : header.split(";")) {
                String trimmed = pair.trim();
                int equals = trimmed.indexOf('=');
                if (equals > 0 && trimmed.substring(0, equals).equals(name)) {
                    String value = trimmed.substring(equals + 1);
                    return value.isEmpty() ? Optional.empty() : Optional.of(value);
                }
            }
            return Optional.empty();
        });
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write the session as JSON", e);
        }
    }
}
