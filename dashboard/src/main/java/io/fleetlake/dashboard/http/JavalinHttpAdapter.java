package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.http.BoundedBody;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.http.QueryParameters;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * Every response, Javalin's own included, carries {@link SecurityHeaders}.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpAdapter.class);

    /** Methods handed to the router, so that it can answer 405 rather than 404 for a served path. */
    private static final List<HandlerType> METHODS =
            List.of(HandlerType.GET, HandlerType.POST, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE);

    private final Javalin server;

    private JavalinHttpAdapter(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param gate answers a request itself (sign-in, refusals) or hands it to the router
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(
            Router router, BiFunction<HttpRequest, Router, HttpResponse> gate, Limits limits, String host, int port) {
        requireNonNull(router, "router is null");
        requireNonNull(gate, "gate is null");
        requireNonNull(limits, "limits is null");
        requireNonNull(host, "host is null");
        Semaphore permits = new Semaphore(limits.maxConcurrentRequests());
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            // Javalin's own check of Content-Length; serve() also bounds chunked bodies.
            config.http.maxRequestSize = limits.maxRequestBytes();
            config.router.mount(routing -> {
                routing.before(context -> SecurityHeaders.ALL.forEach(context::header));
                for (HandlerType method : METHODS) {
                    routing.addHttpHandler(method, "/", context -> serve(router, gate, limits, permits, context));
                    routing.addHttpHandler(method, "/*", context -> serve(router, gate, limits, permits, context));
                }
            });
        });
        server.start(host, port);
        return new JavalinHttpAdapter(server);
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }

    private static void serve(
            Router router,
            BiFunction<HttpRequest, Router, HttpResponse> gate,
            Limits limits,
            Semaphore permits,
            Context context) {
        HttpRequest bare = new HttpRequest(
                context.method().name(),
                context.path(),
                QueryParameters.firstValues(context),
                headers(context),
                "",
                // The peer's address, never X-Forwarded-For (Javalin's ip() reads it): anyone can set that header.
                context.req().getRemoteAddr());
        if (!permits.tryAcquire()) {
            write(
                    context,
                    router.refuse(
                                    bare,
                                    new DashboardException(
                                            DashboardError.TOO_BUSY,
                                            "The dashboard is serving as many requests as"
                                                    + " dashboard.max-concurrent-requests allows; try again in a"
                                                    + " second"))
                            .withHeader("Retry-After", "1"));
            return;
        }
        try {
            HttpRequest request;
            try {
                request = context.method() == HandlerType.GET ? bare : withBody(bare, context, limits);
            } catch (BoundedBody.TooLargeException e) {
                write(
                        context,
                        router.refuse(
                                bare,
                                new DashboardException(
                                        DashboardError.PAYLOAD_TOO_LARGE,
                                        "The request body is larger than " + e.maxBytes()
                                                + " bytes (dashboard.max-request-bytes)")));
                return;
            } catch (IOException e) {
                LOG.debug("Could not read the body of {} {}: {}", context.method(), context.path(), e.toString());
                write(
                        context,
                        router.refuse(
                                bare,
                                new DashboardException(
                                        DashboardError.INVALID_PARAMETER, "The request body could not be read")));
                return;
            }
            write(context, gate.apply(request, router));
        } finally {
            permits.release();
        }
    }

    private static HttpRequest withBody(HttpRequest bare, Context context, Limits limits) throws IOException {
        byte[] body = BoundedBody.read(
                context.req().getInputStream(), context.req().getContentLengthLong(), limits.maxRequestBytes());
        return new HttpRequest(
                bare.method(),
                bare.path(),
                bare.queryParameters(),
                bare.headers(),
                new String(body, StandardCharsets.UTF_8),
                bare.remoteAddress());
    }

    private static void write(Context context, HttpResponse response) {
        // Positions change every second: a cached answer would show vehicles where they no longer are.
        context.header("Cache-Control", "no-store");
        response.headers().forEach(context::header);
        context.status(response.status()).contentType(response.contentType()).result(response.body());
    }

    private static Map<String, String> headers(Context context) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : context.headerMap().keySet()) {
            headers.putIfAbsent(name, context.header(name));
        }
        return headers;
    }

    /**
     * What one client may make the server hold.
     *
     * @param maxRequestBytes the largest request body accepted
     * @param maxConcurrentRequests requests served at once
     */
    public record Limits(long maxRequestBytes, int maxConcurrentRequests) {
        public Limits {
            if (maxRequestBytes < 1 || maxConcurrentRequests < 1) {
                throw new IllegalArgumentException("Limits must be positive");
            }
        }
    }
}
