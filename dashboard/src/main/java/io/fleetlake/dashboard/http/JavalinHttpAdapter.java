package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JavalinServer;
import io.fleetlake.http.RequestAdmission;
import io.fleetlake.http.RequestLimits;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The HTTP layer: a Javalin (Jetty) server that admits a request, hands it to the gate in front of the {@link Router}
 * and writes back what it returns. It does no routing and no error mapping of its own; what it refuses before the gate
 * sees a request, it answers with the router's error bodies:
 *
 * <ol>
 *   <li>{@code maxConcurrentRequests} requests already being served: 503 {@code TOO_BUSY} with {@code Retry-After},
 *       at once;
 *   <li>a body larger than {@code maxRequestBytes}, declared ({@code Content-Length}) or sent (chunked): 413 {@code
 *       PAYLOAD_TOO_LARGE}, having read at most one byte more than the limit.
 * </ol>
 *
 * Both checks are the shared {@link RequestAdmission}'s. Every response, Javalin's own included, carries {@link SecurityHeaders}.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
    /** Methods handed to the router, so that it can answer 405 rather than 404 for a served path. */
    private static final List<HandlerType> METHODS =
            List.of(HandlerType.GET, HandlerType.POST, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE);

    private final JavalinServer server;

    private JavalinHttpAdapter(JavalinServer server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param gate answers a request itself (sign-in, refusals) or hands it to the router
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(
            Router router,
            BiFunction<HttpRequest, Router, HttpResponse> gate,
            RequestLimits limits,
            String host,
            int port) {
        requireNonNull(router, "router is null");
        requireNonNull(gate, "gate is null");
        requireNonNull(host, "host is null");
        RequestAdmission admission = new RequestAdmission(requireNonNull(limits, "limits is null"));
        return new JavalinHttpAdapter(JavalinServer.start(host, port, admission, routing -> {
            routing.before(context -> SecurityHeaders.ALL.forEach(context::header));
            for (HandlerType method : METHODS) {
                routing.addHttpHandler(method, "/", context -> serve(router, gate, admission, context));
                routing.addHttpHandler(method, "/*", context -> serve(router, gate, admission, context));
            }
        }));
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }

    private static void serve(
            Router router,
            BiFunction<HttpRequest, Router, HttpResponse> gate,
            RequestAdmission admission,
            Context context) {
        HttpRequest bare = HttpRequest.of(context);
        Consumer<RequestAdmission.Refusal> refuse =
                refused -> write(context, router.refuse(bare, refusal(refused, admission.limits())));
        admission.serve(context, refuse, () -> {
            Optional<HttpRequest> request = context.method() == HandlerType.GET
                    ? Optional.of(bare)
                    : admission.body(context, refuse).map(bare::withBody);
            request.ifPresent(admitted -> write(context, gate.apply(admitted, router)));
        });
    }

    /** The router's error for a request refused before the gate saw it. */
    private static DashboardException refusal(RequestAdmission.Refusal refused, RequestLimits limits) {
        return switch (refused) {
            case TOO_BUSY ->
                new DashboardException(
                        DashboardError.TOO_BUSY,
                        "The dashboard is serving as many requests as dashboard.max-concurrent-requests allows; try again"
                                + " in a second");
            case TOO_LARGE ->
                new DashboardException(
                        DashboardError.PAYLOAD_TOO_LARGE,
                        "The request body is larger than " + limits.maxRequestBytes()
                                + " bytes (dashboard.max-request-bytes)");
            case UNREADABLE ->
                new DashboardException(DashboardError.INVALID_PARAMETER, "The request body could not be read");
        };
    }

    private static void write(Context context, HttpResponse response) {
        // Positions change every second: a cached answer would show vehicles where they no longer are.
        context.header("Cache-Control", "no-store");
        response.headers().forEach(context::header);
        context.status(response.status()).contentType(response.contentType()).result(response.body());
    }
}
