package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;

/**
 * The HTTP layer: a Javalin (Jetty) server that hands every request to {@link PlanningRoutes} and writes back what it
 * returns. It does no routing and no error mapping of its own.
 */
final class JavalinAdapter implements AutoCloseable {
    /** A route with a long path is a few hundred kilobytes of JSON; 8 MiB leaves ample room. */
    private static final long MAX_REQUEST_BYTES = 8L * 1024 * 1024;

    private static final List<HandlerType> METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.POST, HandlerType.DELETE, HandlerType.PATCH);

    private final Javalin server;

    private JavalinAdapter(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    static JavalinAdapter start(PlanningRoutes routes, String host, int port) {
        requireNonNull(routes, "routes is null");
        requireNonNull(host, "host is null");
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_REQUEST_BYTES;
            config.router.mount(routing -> {
                for (HandlerType method : METHODS) {
                    routing.addHttpHandler(method, "/*", context -> serve(routes, context));
                }
            });
        });
        server.start(host, port);
        return new JavalinAdapter(server);
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }

    private static void serve(PlanningRoutes routes, Context context) {
        String method = context.method().name();
        String body = context.method() == HandlerType.GET ? "" : context.body();
        ApiResponse response = routes.handle(new ApiRequest(method, context.path(), body));
        context.status(response.status());
        response.body().ifPresent(json -> context.contentType(ContentType.APPLICATION_JSON)
                .result(json));
    }
}
