package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.connect.client.ConnectRestPrincipals;
import io.fleetlake.identity.PasswordHash;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 */
public final class ConnectRestSecurityExtension implements ConnectRestExtension {
    static final String ADMIN_HASH = "fleet.ingest.rest-admin-hash";
    static final String MONITOR_HASH = "fleet.ingest.rest-monitor-hash";

    private volatile AuthenticationFilter filter;

    @Override
    public void configure(Map<String, ?> configs) {
        Object admin = configs.get(ADMIN_HASH);
        Object monitor = configs.get(MONITOR_HASH);
        if (admin == null || monitor == null) {
            throw new IllegalArgumentException("The REST security extension needs the worker properties " + ADMIN_HASH
                    + " and " + MONITOR_HASH + "; start the worker through ConnectWorker");
        }
        filter = new AuthenticationFilter(new PasswordHash(admin.toString()), new PasswordHash(monitor.toString()));
    }

    @Override
    public void register(ConnectRestExtensionContext context) {
        context.configurable()
                .register(requireNonNull(filter, "configure() was not called"), Priorities.AUTHENTICATION);
    }

    @Override
    public void close() {
        // Nothing to release.
    }

    @Override
    public String version() {
        return ConnectorVersion.current();
    }

    /** The JAX-RS filter; public for Jersey. */
    public static final class AuthenticationFilter implements ContainerRequestFilter {
        private static final Logger LOG = LoggerFactory.getLogger(AuthenticationFilter.class);
        private static final String CHALLENGE = "Basic realm=\"fleet-connect\", charset=\"UTF-8\"";
        private static final Set<String> READ_METHODS = Set.of("GET", "HEAD");
        private static final Pattern INTERNAL_TASKS = Pattern.compile("/?connectors/[^/]+/tasks/?");
        private static final Pattern INTERNAL_FENCE = Pattern.compile("/?connectors/[^/]+/fence/?");
        private static final Pattern HEALTH = Pattern.compile("/?ingest/health/?");

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
            return (method.equals("GET") && HEALTH.matcher(path).matches())
                    || (method.equals("POST") && INTERNAL_TASKS.matcher(path).matches())
                    || (method.equals("PUT") && INTERNAL_FENCE.matcher(path).matches());
        }

        private static String error(int code, String message) {
            return "{\"error_code\":" + code + ",\"message\":\"" + message + "\"}";
        }
    }
}
