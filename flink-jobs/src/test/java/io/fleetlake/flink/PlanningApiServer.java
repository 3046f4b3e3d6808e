package io.fleetlake.flink;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on a free loopback port that answers the planning API's {@code GET /v1/routes} the way a test
 * tells it to: routes, another status, or not at all for a while.
 */
public final class PlanningApiServer implements AutoCloseable {
    private static final long LONGEST_HOLD_SECONDS = 30;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile int status = 200;
    private volatile String body = RouteJson.writeAll(List.of());
    private volatile CountDownLatch gate = new CountDownLatch(0);

    private PlanningApiServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(PlanningApi.ROUTES_PATH, this::handle);
        server.setExecutor(executor);
    }

    public static PlanningApiServer start() throws IOException {
        PlanningApiServer planningApi = new PlanningApiServer();
        planningApi.server.start();
        return planningApi;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public void serve(List<PlannedRoute> routes) {
        answer(200, RouteJson.writeAll(routes));
    }

    public void answer(int status, String body) {
        this.body = body;
        this.status = status;
    }

    /** Requests from now on get no answer until {@link #release()}. */
    public void hold() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        gate.countDown();
    }

    public int requests() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            try {
                gate.await(LONGEST_HOLD_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        executor.shutdownNow();
    }
}
