package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP layer: a Javalin (Jetty) server that hands every request to the {@link Router} and writes back what it
 * returns. It does no routing and no error mapping of its own.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
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
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(Router router, String host, int port) {
        requireNonNull(router, "router is null");
        requireNonNull(host, "host is null");
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.router.mount(routing -> {
                for (HandlerType method : METHODS) {
                    routing.addHttpHandler(method, "/", context -> serve(router, context));
                    routing.addHttpHandler(method, "/*", context -> serve(router, context));
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

    private static void serve(Router router, Context context) {
        HttpResponse response =
                router.handle(new HttpRequest(context.method().name(), context.path(), firstValues(context)));
        // Positions change every second: a cached answer would show vehicles where they no longer are.
        context.header("Cache-Control", "no-store");
        context.status(response.status()).contentType(response.contentType()).result(response.body());
    }

    private static Map<String, String> firstValues(Context context) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : context.queryParamMap().entrySet()) {
            if (!entry.getValue().isEmpty()) {
                parameters.put(entry.getKey(), entry.getValue().get(0));
            }
        }
        return parameters;
    }
}
