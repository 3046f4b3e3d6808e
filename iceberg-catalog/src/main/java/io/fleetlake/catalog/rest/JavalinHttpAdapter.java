package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP layer: a Javalin (Jetty) server that hands every request to a {@link RestRouter} and writes back what it
 * returns. It does no routing and no error mapping of its own.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
    /** Table metadata updates are small, but a create request carries a whole schema; 16 MiB leaves ample room. */
    private static final long MAX_REQUEST_BYTES = 16L * 1024 * 1024;

    private final Javalin server;

    private JavalinHttpAdapter(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(RestRouter router, String host, int port) {
        requireNonNull(router, "router is null");
        requireNonNull(host, "host is null");
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_REQUEST_BYTES;
            config.router.mount(routing -> {
                for (HttpMethod method : HttpMethod.values()) {
                    routing.addHttpHandler(HandlerType.valueOf(method.name()), "/*", context -> serve(router, context));
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

    private static void serve(RestRouter router, Context context) {
        HttpMethod method = HttpMethod.valueOf(context.method().name());
        String body = method == HttpMethod.POST ? context.body() : "";
        RestResponse response = router.handle(new RestRequest(
                method,
                context.path(),
                firstValues(context),
                body,
                Optional.ofNullable(context.header("Authorization"))));
        context.status(response.status());
        if (method != HttpMethod.HEAD) {
            response.body().ifPresent(json -> context.contentType(ContentType.APPLICATION_JSON)
                    .result(json));
        }
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
