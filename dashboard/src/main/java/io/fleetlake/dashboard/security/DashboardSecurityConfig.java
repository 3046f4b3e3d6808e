package io.fleetlake.dashboard.security;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.PasswordHash;
import io.fleetlake.identity.dashboard.DashboardOperators;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Who may sign in to the dashboard and the limits of its HTTP server, keys {@code dashboard.*}. Exactly one source of
 * operators is required: the dashboard never serves anonymously.
 *
 * @param usersFile {@code dashboard.users-file}: the operators file ({@link DashboardOperators}, hashes only), read
 *     at every sign-in; the embedded stack's
 * @param operatorPassword {@code dashboard.password}: the password of the one operator {@value
 *     DashboardOperators#OPERATOR}, hashed at start and never kept in clear (compose passes it from {@code .env});
 *     hidden in {@link #toString()}
 * @param sessionIdleTimeout a session unused for longer is signed out
 * @param sessionLifetime a session older than this is signed out, however busy
 * @param secureCookie mark the session cookie {@code Secure}: set it when the dashboard is served over TLS (behind a
 *     TLS-terminating proxy), so that the browser never sends the cookie in clear
 * @param signInMaxFailures failed sign-ins an address may have within {@code signInFailureWindow}; the next is 429
 * @param signInFailureWindow how long failed sign-ins count
 * @param maxRequestBytes the largest request body accepted; a larger one is 413
 * @param maxConcurrentRequests requests served at once; one more is 503 at once
 */
public record DashboardSecurityConfig(
        Optional<Path> usersFile,
        Optional<PasswordHash> operatorPassword,
        Duration sessionIdleTimeout,
        Duration sessionLifetime,
        boolean secureCookie,
        int signInMaxFailures,
        Duration signInFailureWindow,
        long maxRequestBytes,
        int maxConcurrentRequests) {
    public static final String USERS_FILE = "dashboard.users-file";
    public static final String PASSWORD = "dashboard.password";
    public static final String SESSION_IDLE_TIMEOUT = "dashboard.session-idle-timeout";
    public static final String SESSION_LIFETIME = "dashboard.session-lifetime";
    public static final String SECURE_COOKIE = "dashboard.secure-cookie";
    public static final String SIGN_IN_MAX_FAILURES = "dashboard.sign-in-max-failures";
    public static final String SIGN_IN_FAILURE_WINDOW = "dashboard.sign-in-failure-window";
    public static final String MAX_REQUEST_BYTES = "dashboard.max-request-bytes";
    public static final String MAX_CONCURRENT_REQUESTS = "dashboard.max-concurrent-requests";

    public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SESSION_LIFETIME = Duration.ofHours(12);
    public static final int DEFAULT_SIGN_IN_MAX_FAILURES = 10;
    public static final Duration DEFAULT_SIGN_IN_FAILURE_WINDOW = Duration.ofMinutes(15);
    /** The dashboard takes no uploads: its only bodies are the sign-in and sign-out forms. */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 16 * 1024;
    /** A page polls a few endpoints at once; 32 serve several operators while bounding Redis and Trino load. */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 32;

    public DashboardSecurityConfig {
        requireNonNull(usersFile, "usersFile is null");
        requireNonNull(operatorPassword, "operatorPassword is null");
        requireNonNull(sessionIdleTimeout, "sessionIdleTimeout is null");
        requireNonNull(sessionLifetime, "sessionLifetime is null");
        requireNonNull(signInFailureWindow, "signInFailureWindow is null");
        if (usersFile.isPresent() == operatorPassword.isPresent()) {
            throw new ConfigException("Set exactly one of " + USERS_FILE + " (the operators file; the embedded stack"
                    + " sets it) or " + PASSWORD + " (environment FLEET_DASHBOARD_PASSWORD): the dashboard never serves"
                    + " without sign-in");
        }
        requirePositive(SESSION_IDLE_TIMEOUT, sessionIdleTimeout, "30m");
        requirePositive(SESSION_LIFETIME, sessionLifetime, "12h");
        requirePositive(SIGN_IN_FAILURE_WINDOW, signInFailureWindow, "15m");
        if (sessionIdleTimeout.compareTo(sessionLifetime) > 0) {
            throw new ConfigException(SESSION_IDLE_TIMEOUT + " = " + sessionIdleTimeout + " must not be longer than "
                    + SESSION_LIFETIME + " = " + sessionLifetime);
        }
        if (signInMaxFailures < 1) {
            throw new ConfigException(
                    SIGN_IN_MAX_FAILURES + " = " + signInMaxFailures + " must be at least 1, such as 10");
        }
        if (maxRequestBytes < 1024) {
            throw new ConfigException(MAX_REQUEST_BYTES + " = " + maxRequestBytes + " must be at least 1024 bytes,"
                    + " such as " + DEFAULT_MAX_REQUEST_BYTES);
        }
        if (maxConcurrentRequests < 1) {
            throw new ConfigException(MAX_CONCURRENT_REQUESTS + " = " + maxConcurrentRequests
                    + " must be at least 1, such as " + DEFAULT_MAX_CONCURRENT_REQUESTS);
        }
    }

    /** Reads the keys; {@value #USERS_FILE} or {@value #PASSWORD} is required, the others have defaults. */
    public static DashboardSecurityConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new DashboardSecurityConfig(
                source.string(USERS_FILE).map(Path::of),
                source.secret(PASSWORD, password -> {
                    try {
                        return DashboardOperators.hashChosen(password);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(PASSWORD + ": " + e.getMessage(), e);
                    }
                }),
                source.duration(SESSION_IDLE_TIMEOUT, DEFAULT_SESSION_IDLE_TIMEOUT),
                source.duration(SESSION_LIFETIME, DEFAULT_SESSION_LIFETIME),
                source.bool(SECURE_COOKIE, false),
                source.integer(SIGN_IN_MAX_FAILURES, DEFAULT_SIGN_IN_MAX_FAILURES),
                source.duration(SIGN_IN_FAILURE_WINDOW, DEFAULT_SIGN_IN_FAILURE_WINDOW),
                source.longValue(MAX_REQUEST_BYTES, DEFAULT_MAX_REQUEST_BYTES),
                source.integer(MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_CONCURRENT_REQUESTS));
    }

    /** Where the gate looks up an operator's password hash. */
    Operators operators() {
        if (usersFile.isPresent()) {
            DashboardOperators file = new DashboardOperators(usersFile.get());
            return file::hash;
        }
        PasswordHash hash = operatorPassword.orElseThrow();
        return user -> user.equals(DashboardOperators.OPERATOR) ? Optional.of(hash) : Optional.empty();
    }

    @Override
    public String toString() {
        return "DashboardSecurityConfig{usersFile="
                + usersFile.map(Path::toString).orElse("none") + ", password="
                + operatorPassword.map(present -> "[hidden]").orElse("none") + ", sessionIdleTimeout="
                + sessionIdleTimeout + ", sessionLifetime=" + sessionLifetime + ", secureCookie=" + secureCookie
                + ", signInMaxFailures=" + signInMaxFailures + ", signInFailureWindow=" + signInFailureWindow
                + ", maxRequestBytes=" + maxRequestBytes + ", maxConcurrentRequests=" + maxConcurrentRequests + "}";
    }

    private static void requirePositive(String key, Duration value, String example) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " = " + value + " must be a positive duration such as " + example);
        }
    }

    /** The operators' password hashes by user name. */
    @FunctionalInterface
    interface Operators {
        Optional<PasswordHash> hash(String user);
    }
}
