package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the assembled Trino 476 (trino/target/trino-server, unpacked at prepare-package) on free ports with a JDK
 * 24+, runs SQL over trino-jdbc (HTTPS, a user's password, the data folder's CA) and checks what it listens on. The Iceberg REST catalog points to a closed port: Trino
 * must start anyway, since the catalog is contacted only when a query uses it. Without a JDK 24+ it fails with the JDK
 * locator's message (where it looked, what to set); it never skips.
 */
class TrinoServerIT {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoServerIT.class);

    @TempDir
    Path dataDirectory;

    @Test
    void startsAnswersSqlListensOnlyOnLoopbackAndStops() throws Exception {
        int closedPort = closedPort();
        TrinoConfig config = TrinoConfig.from(ConfigSource.of(SecurityValues.with(Map.of(
                "trino.port",
                "0",
                "trino.https-port",
                "0",
                "trino.data-dir",
                dataDirectory.toString(),
                "trino.server-dir",
                System.getProperty("trino.server-dir", "target/trino-server"),
                "trino.catalog-uri",
                "http://127.0.0.1:" + closedPort,
                "trino.s3-endpoint",
                "http://127.0.0.1:" + closedPort,
                "trino.s3-access-key",
                "fleet",
                "trino.s3-secret-key",
                "fleet-secret"))));

        long pid;
        int port;
        try (TrinoServer server = new TrinoServer(config)) {
            long startNanos = System.nanoTime();
            server.start();
            LOG.info("Trino 476 ready in {} ms", (System.nanoTime() - startNanos) / 1_000_000);
            pid = server.processId();
            port = server.port();

            assertThat(server.isReady()).isTrue();
            assertThat(query(server, "SELECT 1")).containsExactly("1");
            assertThat(query(server, "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'"))
                    .as("the coordinator schedules queries as soon as start() returns")
                    .containsExactly("1");
            assertThat(query(server, "SHOW CATALOGS")).contains("iceberg", "system");
            TrinoConnectionFactory analyst = server.connectionFactory(TrinoUser.ANALYST);
            assertThatThrownBy(() -> new TrinoConnectionFactory(
                                    analyst.jdbcUrl(),
                                    analyst.user(),
                                    "wrong-password",
                                    analyst.trustStore(),
                                    analyst.source())
                            .connect()
                            .createStatement()
                            .executeQuery("SELECT 1"))
                    .as("a wrong password")
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Authentication failed");
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> overHttp = http.send(
                    HttpRequest.newBuilder(server.uri().resolve("/v1/statement"))
                            .header("X-Trino-User", "admin")
                            .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(overHttp.statusCode())
                    .as("plain HTTP serves no client: " + overHttp.body())
                    .isEqualTo(403);
            if (ListeningSockets.supported()) {
                List<InetSocketAddress> listening = ListeningSockets.of(pid);
                LOG.info("Trino (pid {}) listens on {}", pid, listening);
                assertThat(listening)
                        .isNotEmpty()
                        .contains(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port))
                        .contains(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.httpsPort()))
                        .allSatisfy(address -> assertThat(address.getAddress().getHostAddress())
                                .isEqualTo("127.0.0.1"));
            }
        }

        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(socket.getLocalPort()).as("port released after close").isEqualTo(port);
        }
    }

    private static List<String> query(TrinoServer server, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = server.connectionFactory(TrinoUser.ANALYST).connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
