package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.router.JavalinDefaultRouting;
import java.util.function.Consumer;

/**
 * One of the project's Javalin (Jetty) servers, started: no banner, Javalin's own body limit set from the {@link
 * RequestAdmission} its handlers admit requests through, and the routes its adapter mounts. The adapters (the
 * catalog's, the dashboard's, the planning API's) keep what differs: their routes, their refusals, their error bodies.
 */
public final class JavalinServer implements AutoCloseable {
    private final Javalin server;

    private JavalinServer(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param port the port, or 0 for a free one (see {@link #port()})
     * @param admission what the routes' handlers admit requests through
     * @param routes mounts the adapter's handlers
     */
    public static JavalinServer start(
            String host, int port, RequestAdmission admission, Consumer<JavalinDefaultRouting> routes) {
        requireNonNull(host, "host is null");
        requireNonNull(admission, "admission is null");
        requireNonNull(routes, "routes is null");
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            admission.configure(config);
            config.router.mount(routes);
        });
        server.start(host, port);
        return new JavalinServer(server);
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
