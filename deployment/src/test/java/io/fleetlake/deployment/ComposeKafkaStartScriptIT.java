package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.admin.ConfigCommand;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.utils.Exit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/kafka/start.sh on the real broker: the server properties it renders (listener addresses and data folder
 * replaced by free ports and a temporary folder) start Kafka's own server, and its SCRAM files, given to
 * {@code kafka-configs --bootstrap-server <LOCAL listener> ... --add-config-file} as the script does, create principals that log in
 * with the passwords of the environment, while the broker refuses any other password.
 */
class ComposeKafkaStartScriptIT {
    private static final Map<String, String> PASSWORDS = Map.of(
            "fleet-admin", "admin-Password_0123456789",
            "fleet-connect", "connect-Password_0123456789",
            "fleet-pipeline", "pipeline-Password_0123456789",
            "fleet-monitor", "monitor-Password_0123456789");

    @TempDir
    static Path directory;

    private static KafkaRaftServer server;
    private static String bootstrapServers;

    @BeforeAll
    static void startTheBrokerFromTheRenderedFilesAndSetTheCredentialsAsTheScriptDoes() throws Exception {
        Path rendered = directory.resolve("fleet-kafka");
        Path data = directory.resolve("data");
        ProcessBuilder builder = new ProcessBuilder(
                        "sh", Repository.file("deploy/kafka/start.sh").toString(), "--render-only")
                .redirectErrorStream(true);
        builder.environment().put("KAFKA_FLEET_DIR", rendered.toString());
        builder.environment().put("KAFKA_DATA_DIR", data.toString());
        builder.environment()
                .put(
                        "KAFKA_SECURITY_PROPERTIES",
                        Repository.file("deploy/kafka/security.properties").toString());
        builder.environment().put("KAFKA_ADMIN_PASSWORD", PASSWORDS.get("fleet-admin"));
        builder.environment().put("KAFKA_CONNECT_PASSWORD", PASSWORDS.get("fleet-connect"));
        builder.environment().put("KAFKA_PIPELINE_PASSWORD", PASSWORDS.get("fleet-pipeline"));
        builder.environment().put("KAFKA_MONITOR_PASSWORD", PASSWORDS.get("fleet-monitor"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(rendered.resolve("server.properties"))) {
            properties.load(reader);
        }
        assertThat(properties.getProperty("log.dirs")).isEqualTo(data.toString());
        int port = ComposeKafka.freePort();
        int controllerPort = ComposeKafka.freePort();
        int localPort = ComposeKafka.freePort();
        bootstrapServers = "127.0.0.1:" + port;
        properties.put(
                "listeners",
                "SASL_PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort
                        + ",LOCAL://127.0.0.1:" + localPort);
        properties.put(
                "advertised.listeners", "SASL_PLAINTEXT://" + bootstrapServers + ",LOCAL://127.0.0.1:" + localPort);
        properties.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);

        server = ComposeKafka.start(properties, data, List.of());

        // The script's kafka-configs call, with the LOCAL listener's address of this test.
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("kafka-configs exited with " + code + ": " + message);
        });
        try {
            for (String user : PASSWORDS.keySet()) {
                ConfigCommand.main(new String[] {
                    "--bootstrap-server",
                    "127.0.0.1:" + localPort,
                    "--alter",
                    "--entity-type",
                    "users",
                    "--entity-name",
                    user,
                    "--add-config-file",
                    rendered.resolve("scram-" + user + ".properties").toString()
                });
            }
        } finally {
            Exit.resetExitProcedure();
        }
    }

    @AfterAll
    static void stopTheBroker() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
        }
    }

    @Test
    void everyPrincipalLogsInWithItsPasswordFromTheEnvironment() throws Exception {
        for (Map.Entry<String, String> user : PASSWORDS.entrySet()) {
            try (Admin admin = Admin.create(client(user.getKey(), user.getValue()))) {
                assertThat(admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS))
                        .as(user.getKey())
                        .isEqualTo(ComposeKafka.CLUSTER_ID);
            }
        }
    }

    @Test
    void anotherPrincipalsPasswordIsRefused() {
        try (Admin admin = Admin.create(client("fleet-monitor", PASSWORDS.get("fleet-connect")))) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    private static Map<String, Object> client(String user, String password) {
        return ComposeKafka.client(bootstrapServers, user, password);
    }
}
