package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.http.BoundedBody;
import io.fleetlake.model.planning.PlanningApi;
import io.javalin.Javalin;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP layer: a Javalin (Jetty) server that admits a request, hands it to {@link PlanningRoutes} and writes back
 * what it returns. It does no routing of its own; what it refuses before the routes see a request, it answers with the
 * routes' error bodies, in this order:
 *
 * <ol>
 *   <li>no {@code Authorization: Bearer <planning.token>} (every path but {@code GET /healthz}): 401 {@code
 *       UNAUTHORIZED}, with a {@code WWW-Authenticate} challenge; compared in constant time;
 *   <li>{@code planning.max-concurrent-requests} requests already being served: 503 {@code TOO_BUSY} with {@code
 *       Retry-After}, at once;
 *   <li>a body larger than {@code planning.max-request-bytes}, declared ({@code Content-Length}) or sent (chunked): 413
 *       {@code PAYLOAD_TOO_LARGE}, having read at most one byte more than the limit.
 * </ol>
 */
final class JavalinAdapter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JavalinAdapter.class);
    private static final String CHALLENGE = "Bearer realm=\"fleet-planning\"";

    private static final List<HandlerType> METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.POST, HandlerType.DELETE, HandlerType.PATCH);

    private final Javalin server;

    private JavalinAdapter(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening on {@code config}'s host and port (0 for a free one, see {@link #port()}).
     *
     * @param token the bearer token every request but the health check must carry
     */
    static JavalinAdapter start(PlanningRoutes routes, PlanningApiConfig config, String token) {
        requireNonNull(routes, "routes is null");
        requireNonNull(config, "config is null");
        Admission admission = new Admission(
                ("Bearer " + requireNonNull(token, "token is null")).getBytes(StandardCharsets.UTF_8),
                new Semaphore(config.maxConcurrentRequests()),
                config.maxRequestBytes());
        Javalin server = Javalin.create(javalin -> {
            javalin.showJavalinBanner = false;
            // Javalin's own check of Content-Length; Admission also bounds chunked bodies.
            javalin.http.maxRequestSize = config.maxRequestBytes();
            javalin.router.mount(routing -> {
                for (HandlerType method : METHODS) {
                    routing.addHttpHandler(method, "/*", context -> admission.serve(routes, context));
                }
            });
        });
        server.start(config.host(), config.port());
        return new JavalinAdapter(server);
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }

    /** The checks before a request reaches the routes. */
    private record Admission(byte[] expectedAuthorization, Semaphore permits, long maxRequestBytes) {
        void serve(PlanningRoutes routes, Context context) {
            boolean health =
                    context.method() == HandlerType.GET && context.path().equals(PlanningApi.HEALTH_PATH);
            if (!health && !authorized(context.header("Authorization"))) {
                context.header("WWW-Authenticate", CHALLENGE);
                write(
                        context,
                        PlanningRoutes.error(
                                ApiError.UNAUTHORIZED,
                                "Send the planning API's token as Authorization: Bearer <token> (planning.token; the"
                                        + " embedded stack keeps it in <data-dir>/secrets/planning.properties)"));
                return;
            }
            if (!permits.tryAcquire()) {
                context.header("Retry-After", "1");
                write(
                        context,
                        PlanningRoutes.error(
                                ApiError.TOO_BUSY,
                                "The planning API is serving as many requests as planning.max-concurrent-requests"
                                        + " allows; try again in a second"));
                return;
            }
            try {
                String body;
                try {
                    body = context.method() == HandlerType.GET ? "" : boundedBody(context);
                } catch (BoundedBody.TooLargeException e) {
                    write(
                            context,
                            PlanningRoutes.error(
                                    ApiError.PAYLOAD_TOO_LARGE,
                                    "The request body is larger than " + maxRequestBytes
                                            + " bytes (planning.max-request-bytes)"));
                    return;
                } catch (IOException e) {
                    LOG.debug("Could not read the body of {} {}: {}", context.method(), context.path(), e.toString());
                    write(
                            context,
                            PlanningRoutes.error(
                                    ApiError.BAD_REQUEST, "The request body could not be read: " + e.getMessage()));
                    return;
                }
                write(context, routes.handle(new ApiRequest(context.method().name(), context.path(), body)));
            } finally {
                permits.release();
            }
        }

        private boolean authorized(String header) {
            return header != null
                    && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
        }

        /** The body, read up to one byte past the limit. */
        private String boundedBody(Context context) throws IOException {
            return new String(
                    BoundedBody.read(
                            context.req().getInputStream(), context.req().getContentLengthLong(), maxRequestBytes),
                    StandardCharsets.UTF_8);
        }

        private static void write(Context context, ApiResponse response) {
            context.status(response.status());
            response.body().ifPresent(json -> context.contentType(ContentType.APPLICATION_JSON)
                    .result(json));
        }
    }
}
