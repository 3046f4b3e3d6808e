package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.http.BoundedBody;
import io.fleetlake.connect.client.ConnectRestPrincipals;
import io.fleetlake.identity.PasswordHash;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;
import org.apache.kafka.connect.rest.ConnectRestExtension;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP basic authentication for the worker's whole REST API, with two principals (see {@link ConnectRestPrincipals}):
 * {@value ConnectRestPrincipals#ADMIN} may do everything, {@value ConnectRestPrincipals#MONITOR} may only read
 * ({@code GET}, {@code HEAD}). An anonymous request or a wrong password is answered 401 with a {@code WWW-Authenticate}
 * challenge, a change by the monitor 403; both before Connect sees the request.
 *
 * <p>Open without credentials: {@code GET /ingest/health} (a health check that reveals no configuration, for
 * container health checks that must not carry a secret on their command line), and Connect's two internal
 * worker-to-worker endpoints ({@code POST /connectors/<name>/tasks}, {@code PUT /connectors/<name>/fence}), which
 * Connect itself authenticates with the session key's request signature and refuses unsigned, as Kafka's own {@code
 * BasicAuthSecurityRestExtension} leaves them.
 *
 * <p>Holds only the salted hashes of the two passwords ({@link PasswordHash}), from the worker properties {@value
 * #ADMIN_HASH} and {@value #MONITOR_HASH}, which {@link ConnectWorkerConfig#workerProperties()} computes.
 *
 * <p>Limits, as on the project's other HTTP servers: {@value #MAX_CONCURRENT_REQUESTS} requests served at once, one
 * more answered 503 with {@code Retry-After} before its credentials are checked (which bounds the password hashing a
 * flood can cause; the health check is not counted); a body over {@value #MAX_REQUEST_BYTES} bytes, declared or chunked, answered 413 having read at
 * most one byte more, and only once the request is authenticated, so that a stranger cannot make the worker read one.
 */
public final class ConnectRestSecurityExtension implements ConnectRestExtension {
    static final String ADMIN_HASH = "fleet.ingest.rest-admin-hash";
    static final String MONITOR_HASH = "fleet.ingest.rest-monitor-hash";
    static final String MAX_REQUEST_BYTES = "fleet.ingest.rest-max-request-bytes";
    static final String MAX_CONCURRENT_REQUESTS = "fleet.ingest.rest-max-concurrent-requests";

    // Before authentication (Priorities.AUTHENTICATION = 1000), so that a refused request costs no hashing; the body
    // after it (ENTITY_CODER = 4000).
    private static final int CONCURRENCY_PRIORITY = 500;
    private static final Pattern HEALTH = Pattern.compile("/?ingest/health/?");

    private volatile AuthenticationFilter filter;
    private volatile ConcurrencyLimit concurrencyLimit;
    private volatile BodyLimit bodyLimit;

    @Override
    public void configure(Map<String, ?> configs) {
        Object admin = configs.get(ADMIN_HASH);
        Object monitor = configs.get(MONITOR_HASH);
        if (admin == null || monitor == null) {
            throw new IllegalArgumentException("The REST security extension needs the worker properties " + ADMIN_HASH
                    + " and " + MONITOR_HASH + "; start the worker through ConnectWorker");
        }
        filter = new AuthenticationFilter(new PasswordHash(admin.toString()), new PasswordHash(monitor.toString()));
        concurrencyLimit = new ConcurrencyLimit(Math.toIntExact(positive(configs, MAX_CONCURRENT_REQUESTS)));
        bodyLimit = new BodyLimit(positive(configs, MAX_REQUEST_BYTES));
    }

    @Override
    public void register(ConnectRestExtensionContext context) {
        context.configurable()
                .register(requireNonNull(filter, "configure() was not called"), Priorities.AUTHENTICATION);
        context.configurable().register(concurrencyLimit, CONCURRENCY_PRIORITY);
        context.configurable().register(concurrencyLimit.release(), CONCURRENCY_PRIORITY);
        context.configurable().register(bodyLimit, Priorities.ENTITY_CODER);
    }

    private static long positive(Map<String, ?> configs, String key) {
        Object value = configs.get(key);
        if (value == null) {
            throw new IllegalArgumentException("The REST security extension needs the worker property " + key
                    + "; start the worker through" + " ConnectWorker");
        }
        long parsed = Long.parseLong(value.toString());
        if (parsed < 1) {
            throw new IllegalArgumentException(key + " = " + parsed + " must be positive");
        }
        return parsed;
    }

    @Override
    public void close() {
        // Nothing to release.
    }

    @Override
    public String version() {
        return ConnectorVersion.current();
    }

    /**
     * At most {@code permits} requests at once: a permit is taken before authentication and given back when the
     * response is ready, also for a request a later filter refused; public for Jersey.
     */
    public static final class ConcurrencyLimit implements ContainerRequestFilter {
        private static final String PERMIT = ConcurrencyLimit.class.getName() + ".permit";

        private final Semaphore permits;
        private final Release release = new Release();

        ConcurrencyLimit(int permits) {
            this.permits = new Semaphore(permits);
        }

        /** The response filter that gives the permit back; a filter of its own, as Jersey registers one per contract. */
        Release release() {
            return release;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            // The health check reports the connector, not the load of the REST API; it hashes nothing.
            if (isHealthCheck(request.getMethod(), request.getUriInfo().getPath())) {
                return;
            }
            if (!permits.tryAcquire()) {
                request.abortWith(Response.status(Response.Status.SERVICE_UNAVAILABLE)
                        .header(HttpHeaders.RETRY_AFTER, "1")
                        .type(MediaType.APPLICATION_JSON)
                        .entity(error(503, "The worker is serving as many requests as it allows; retry"))
                        .build());
                return;
            }
            request.setProperty(PERMIT, Boolean.TRUE);
        }

        /** Gives a request's permit back once its response is ready; public for Jersey. */
        public final class Release implements ContainerResponseFilter {
            @Override
            public void filter(ContainerRequestContext request, ContainerResponseContext response) {
                if (request.getProperty(PERMIT) != null) {
                    request.removeProperty(PERMIT);
                    permits.release();
                }
            }
        }
    }

    /**
     * Reads the body up to the limit before Connect does ({@link BoundedBody}) and hands Connect the bytes read; public
     * for Jersey.
     */
    public static final class BodyLimit implements ContainerRequestFilter {
        private final long maxBytes;

        BodyLimit(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            if (!request.hasEntity()) {
                return;
            }
            try {
                byte[] body = BoundedBody.read(request.getEntityStream(), request.getLength(), maxBytes);
                request.setEntityStream(new ByteArrayInputStream(body));
            } catch (BoundedBody.TooLargeException e) {
                request.abortWith(Response.status(Response.Status.REQUEST_ENTITY_TOO_LARGE)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(error(413, e.getMessage()))
                        .build());
            } catch (IOException e) {
                request.abortWith(Response.status(Response.Status.BAD_REQUEST)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(error(400, "The request body could not be read"))
                        .build());
            }
        }
    }

    /** The JAX-RS filter; public for Jersey. */
    public static final class AuthenticationFilter implements ContainerRequestFilter {
        private static final Logger LOG = LoggerFactory.getLogger(AuthenticationFilter.class);
        private static final String CHALLENGE = "Basic realm=\"fleet-connect\", charset=\"UTF-8\"";
        private static final Set<String> READ_METHODS = Set.of("GET", "HEAD");
        private static final Pattern INTERNAL_TASKS = Pattern.compile("/?connectors/[^/]+/tasks/?");
        private static final Pattern INTERNAL_FENCE = Pattern.compile("/?connectors/[^/]+/fence/?");

        private final PasswordHash admin;
        private final PasswordHash monitor;

        AuthenticationFilter(PasswordHash admin, PasswordHash monitor) {
            this.admin = requireNonNull(admin, "admin is null");
            this.monitor = requireNonNull(monitor, "monitor is null");
        }

        @Override
        public void filter(ContainerRequestContext request) {
            String method = request.getMethod();
            String path = request.getUriInfo().getPath();
            if (open(method, path)) {
                return;
            }
            Optional<String> principal = authenticate(request.getHeaderString(HttpHeaders.AUTHORIZATION));
            if (principal.isEmpty()) {
                LOG.debug("Refused {} /{}: no valid credentials", method, path);
                request.abortWith(Response.status(Response.Status.UNAUTHORIZED)
                        .header(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(error(
                                401,
                                "Log in with HTTP basic authentication as " + ConnectRestPrincipals.ADMIN + " or "
                                        + ConnectRestPrincipals.MONITOR))
                        .build());
                return;
            }
            if (principal.get().equals(ConnectRestPrincipals.MONITOR) && !READ_METHODS.contains(method)) {
                LOG.debug("Refused {} /{} to {}: it may only read", method, path, ConnectRestPrincipals.MONITOR);
                request.abortWith(Response.status(Response.Status.FORBIDDEN)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(error(
                                403,
                                ConnectRestPrincipals.MONITOR + " may only read; changes need "
                                        + ConnectRestPrincipals.ADMIN))
                        .build());
            }
        }

        /** The principal whose name and password the header carries, if any. */
        Optional<String> authenticate(String header) {
            if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
                return Optional.empty();
            }
            String decoded;
            try {
                decoded = new String(
                        Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                return Optional.empty();
            }
            String user = decoded.substring(0, colon);
            String password = decoded.substring(colon + 1);
            if (user.equals(ConnectRestPrincipals.ADMIN) && admin.matches(password)) {
                return Optional.of(ConnectRestPrincipals.ADMIN);
            }
            if (user.equals(ConnectRestPrincipals.MONITOR) && monitor.matches(password)) {
                return Optional.of(ConnectRestPrincipals.MONITOR);
            }
            return Optional.empty();
        }

        private static boolean open(String method, String path) {
            return isHealthCheck(method, path)
                    || (method.equals("POST") && INTERNAL_TASKS.matcher(path).matches())
                    || (method.equals("PUT") && INTERNAL_FENCE.matcher(path).matches());
        }
    }

    private static boolean isHealthCheck(String method, String path) {
        return method.equals("GET") && HEALTH.matcher(path).matches();
    }

    private static String error(int code, String message) {
        return "{\"error_code\":" + code + ",\"message\":\"" + message + "\"}";
    }
}
