package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TrinoHealthCheckTest {
    private final AtomicReference<String> info = new AtomicReference<>();
    private HttpServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/info", exchange -> {
            String body = info.get();
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream output = exchange.getResponseBody()) {
                output.write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void readyOnlyWhenTrinoSaysItIsNotStarting() throws InterruptedException {
        TrinoHealthCheck healthCheck = new TrinoHealthCheck(serverUri());

        info.set("{\"nodeVersion\":{\"version\":\"476\"},\"coordinator\":true,\"starting\":true,\"uptime\":\"1s\"}");
        assertThat(healthCheck.isReady()).isFalse();

        info.set("{\"nodeVersion\":{\"version\":\"476\"},\"coordinator\":true,\"starting\": false,\"uptime\":\"9s\"}");
        assertThat(healthCheck.isReady()).isTrue();
    }

    @Test
    void errorStatusIsNotReady() throws InterruptedException {
        info.set(null);

        assertThat(new TrinoHealthCheck(serverUri()).isReady()).isFalse();
    }

    @Test
    void unreachableServerIsNotReady() throws IOException, InterruptedException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        assertThat(new TrinoHealthCheck(URI.create("http://127.0.0.1:" + closedPort)).isReady())
                .isFalse();
    }

    @Test
    void probesTheInfoEndpoint() {
        assertThat(new TrinoHealthCheck(URI.create("http://127.0.0.1:8080")).infoUri())
                .isEqualTo(URI.create("http://127.0.0.1:8080/v1/info"));
    }

    private URI serverUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }
}
