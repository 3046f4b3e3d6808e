package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Trino's authentication and access control on the shared stack's Trino: nobody gets in without a user's password
 * over HTTPS; the read-only users read, travel in time and read the metadata tables but cannot write; admin writes, on
 * {@code iceberg_admin} only. Admin's writes go to a namespace of this test's own ({@value #SCHEMA}), so that no other
 * test's data changes.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class TrinoAccessIT {
    private static final String SCHEMA = "trino_access_it";
    private static final String TABLE = SCHEMA + ".writes";

    @Test
    void strangersAreRefusedOverHttpsAndOverPlainHttp(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        TrinoConnectionFactory analyst = settings.trino(TrinoUser.ANALYST);
        HttpClient https = TrinoHttps.client(settings.trinoSecrets().caCertificate());
        URI statement = analyst.serverUri().resolve("/v1/statement");

        HttpResponse<String> anonymous = https.send(
                HttpRequest.newBuilder(statement)
                        .header("X-Trino-User", "admin")
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).as("a user name without password").isEqualTo(401);

        HttpResponse<String> wrongPassword = https.send(
                HttpRequest.newBuilder(statement)
                        .header("Authorization", basic("admin", analyst.password()))
                        .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(wrongPassword.statusCode())
                .as("admin with the analyst's password")
                .isEqualTo(401);

        assertThatThrownBy(() -> query(
                        new TrinoConnectionFactory(
                                analyst.jdbcUrl(),
                                analyst.user(),
                                analyst.password() + "-wrong",
                                analyst.trustStore(),
                                analyst.source()),
                        "SELECT 1"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Authentication failed");

        // The plain HTTP port carries only Trino's own signed requests: a client is refused even with a valid password.
        URI plain = URI.create("http://" + settings.host() + ":" + settings.port(StackPort.TRINO) + "/v1/statement");
        HttpResponse<String> overHttp = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(plain)
                                .header("Authorization", basic(analyst.user(), analyst.password()))
                                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(overHttp.statusCode()).isEqualTo(403);
        assertThat(overHttp.body()).contains("Authentication over HTTP is not enabled");
        HttpResponse<String> anonymousOverHttp = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(plain)
                                .header("X-Trino-User", "admin")
                                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(anonymousOverHttp.statusCode()).isEqualTo(403);
    }

    @Test
    void adminWritesAndTheReadOnlyUsersReadTravelInTimeButCannotWrite(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        TrinoConnectionFactory admin = settings.trino(TrinoUser.ADMIN);
        String run = UUID.randomUUID().toString();

        execute(admin, "CREATE SCHEMA IF NOT EXISTS iceberg_admin." + SCHEMA);
        execute(admin, "CREATE TABLE IF NOT EXISTS iceberg_admin." + TABLE + " (run varchar, n integer)");
        execute(admin, "INSERT INTO iceberg_admin." + TABLE + " VALUES ('" + run + "', 1)");
        long afterFirst = Long.parseLong(query(
                        admin,
                        "SELECT snapshot_id FROM iceberg_admin." + SCHEMA
                                + ".\"writes$snapshots\" ORDER BY committed_at DESC LIMIT 1")
                .get(0));
        execute(admin, "INSERT INTO iceberg_admin." + TABLE + " VALUES ('" + run + "', 2)");

        TrinoConnectionFactory analyst = settings.trino(TrinoUser.ANALYST);
        String ofThisRun = " WHERE run = '" + run + "'";
        assertThat(query(analyst, "SELECT count(*) FROM iceberg." + TABLE + ofThisRun))
                .containsExactly("2");
        assertThat(query(
                        analyst,
                        "SELECT count(*) FROM iceberg." + TABLE + " FOR VERSION AS OF " + afterFirst + ofThisRun))
                .as("time travel to the first insert")
                .containsExactly("1");
        assertThat(query(
                        analyst,
                        "SELECT count(*) FROM iceberg." + TABLE
                                // Trino refuses a pointer that is not strictly in the past of the query's start.
                                + " FOR TIMESTAMP AS OF current_timestamp - INTERVAL '0.001' SECOND" + ofThisRun))
                .containsExactly("2");
        assertThat(query(analyst, "SELECT count(*) > 1 FROM iceberg." + SCHEMA + ".\"writes$history\""))
                .containsExactly("true");
        assertThat(query(analyst, "SELECT count(*) >= 0 FROM iceberg." + Tables.qualified(Tables.POSITIONS)))
                .containsExactly("true");

        for (TrinoUser reader : TrinoUser.readOnly()) {
            TrinoConnectionFactory connections = settings.trino(reader);
            for (String write : List.of(
                    "INSERT INTO iceberg." + TABLE + " VALUES ('" + run + "', 3)",
                    "DELETE FROM iceberg." + TABLE + ofThisRun,
                    "DROP TABLE iceberg." + TABLE,
                    "DELETE FROM iceberg." + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id = 'none'",
                    "ALTER TABLE iceberg." + TABLE + " EXECUTE expire_snapshots(retention_threshold => '7d')",
                    "ALTER TABLE iceberg." + TABLE + " EXECUTE optimize")) {
                assertThatThrownBy(() -> execute(connections, write))
                        .as("%s: %s", reader, write)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("Access Denied");
            }
            for (String adminOnly : List.of(
                    "INSERT INTO iceberg_admin." + TABLE + " VALUES ('" + run + "', 3)",
                    "SELECT count(*) FROM iceberg_admin." + TABLE)) {
                // Trino may also hide a catalog the user has no access to.
                assertThatThrownBy(() -> execute(connections, adminOnly))
                        .as("%s: %s", reader, adminOnly)
                        .isInstanceOf(SQLException.class)
                        .hasMessageMatching(
                                "(?s).*(Access Denied|Catalog 'iceberg_admin' (not found|does not exist)).*");
            }
        }
        assertThat(query(analyst, "SELECT count(*) FROM iceberg." + TABLE + ofThisRun))
                .as("nothing the readers tried changed a row")
                .containsExactly("2");
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static void execute(TrinoConnectionFactory connections, String sql) throws SQLException {
        try (Connection connection = connections.connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> query(TrinoConnectionFactory connections, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = connections.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }
}
