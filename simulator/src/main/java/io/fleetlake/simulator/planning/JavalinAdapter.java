package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JavalinServer;
import io.fleetlake.http.JsonResponse;
import io.fleetlake.http.RequestAdmission;
import io.fleetlake.http.RequestLimits;
import io.fleetlake.model.planning.PlanningApi;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

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
 *
 * The last two are the shared {@link RequestAdmission}'s.
 */
final class JavalinAdapter implements AutoCloseable {
    private static final String CHALLENGE = "Bearer realm=\"fleet-planning\"";

    private static final List<HandlerType> METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.POST, HandlerType.DELETE, HandlerType.PATCH);

    private final JavalinServer server;

    private JavalinAdapter(JavalinServer server) {
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
                new RequestAdmission(new RequestLimits(config.maxRequestBytes(), config.maxConcurrentRequests())));
        return new JavalinAdapter(JavalinServer.start(config.host(), config.port(), admission.requests(), routing -> {
            for (HandlerType method : METHODS) {
                routing.addHttpHandler(method, "/*", context -> admission.serve(routes, context));
            }
        }));
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }

    /** The checks before a request reaches the routes. */
    private record Admission(byte[] expectedAuthorization, RequestAdmission requests) {
        void serve(PlanningRoutes routes, Context context) {
            boolean health =
                    context.method() == HandlerType.GET && context.path().equals(PlanningApi.HEALTH_PATH);
            if (!health && !authorized(context.header("Authorization"))) {
                context.header("WWW-Authenticate", CHALLENGE);
                PlanningRoutes.error(
                                ApiError.UNAUTHORIZED,
                                "Send the planning API's token as Authorization: Bearer <token> (planning.token; the"
                                        + " embedded stack keeps it in <data-dir>/secrets/planning.properties)")
                        .writeTo(context);
                return;
            }
            Consumer<RequestAdmission.Refusal> refuse =
                    refused -> refusal(refused).writeTo(context);
            requests.serve(context, refuse, () -> {
                Optional<String> body =
                        context.method() == HandlerType.GET ? Optional.of("") : requests.body(context, refuse);
                body.ifPresent(admitted -> routes.handle(HttpRequest.of(context).withBody(admitted))
                        .writeTo(context));
            });
        }

        /** The routes' error body for a request refused before the routes saw it. */
        private JsonResponse refusal(RequestAdmission.Refusal refused) {
            return switch (refused) {
                case TOO_BUSY ->
                    PlanningRoutes.error(
                            ApiError.TOO_BUSY,
                            "The planning API is serving as many requests as planning.max-concurrent-requests allows; try"
                                    + " again in a second");
                case TOO_LARGE ->
                    PlanningRoutes.error(
                            ApiError.PAYLOAD_TOO_LARGE,
                            "The request body is larger than "
                                    + requests.limits().maxRequestBytes() + " bytes (planning.max-request-bytes)");
                case UNREADABLE -> PlanningRoutes.error(ApiError.BAD_REQUEST, "The request body could not be read");
            };
        }

        private boolean authorized(String header) {
            return header != null
                    && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
        }
    }
}
