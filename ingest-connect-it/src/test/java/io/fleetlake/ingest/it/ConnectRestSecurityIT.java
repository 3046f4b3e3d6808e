package io.fleetlake.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.connect.client.ConnectRestClient.ConnectRestException;
import io.fleetlake.identity.OwnerOnlyFiles;
import io.fleetlake.ingest.ConnectorStatus;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's REST API on the real servers, the worker running as its own process from its configuration file as the
 * stack runs it: nobody gets in without credentials, the monitor principal only reads, the admin principal may change,
 * and neither the REST answers nor the worker's log hold the MQTT secret or a REST password.
 */
class ConnectRestSecurityIT {
    private static final String CONNECTOR = "mqtt-positions";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    // Low limits, so that the test can reach them: the defaults are 1 MiB and 32.
    private static final int MAX_REQUEST_BYTES = 4096;
    private static final int MAX_CONCURRENT_REQUESTS = 2;

    @TempDir
    static Path directory;

    private static WorkerSecrets secrets;
    private static ServerProcessUnderTest kafka;
    private static ServerProcessUnderTest mqtt;
    private static ServerProcessUnderTest worker;
    private static URI restUri;
    private static ConnectRestClient admin;
    private static ConnectRestClient monitor;

    @BeforeAll
    static void startServers() throws Exception {
        kafka = ServerProcessUnderTest.kafka(directory);
        BrokerIdentity identity = new BrokerIdentity(directory);
        secrets = new WorkerSecrets(directory, identity.addIngest());
        mqtt = ServerProcessUnderTest.mqtt(directory, Map.of());
        Map<String, String> configuration = new TreeMap<>(secrets.plus(Map.of(
                "connect.port",
                Integer.toString(ServerProcessUnderTest.freePort()),
                "connect.bootstrap-servers",
                kafka.address(),
                "connect.group-id",
                "security-test",
                "connect.connector-name",
                CONNECTOR,
                "mqtt.server-uri",
                "tcp://" + mqtt.address(),
                "connect.rest-max-request-bytes",
                Integer.toString(MAX_REQUEST_BYTES),
                "connect.rest-max-concurrent-requests",
                Integer.toString(MAX_CONCURRENT_REQUESTS))));
        StringBuilder file = new StringBuilder();
        configuration.forEach((key, value) ->
                file.append(key).append('=').append(value.replace("\\", "\\\\")).append('\n'));
        Path configFile = directory.resolve("connect.properties");
        OwnerOnlyFiles.write(configFile, file.toString().getBytes(StandardCharsets.UTF_8));
        worker = ServerProcessUnderTest.connectWorker(directory, configFile);
        restUri = URI.create("http://" + worker.address());
        admin = ConnectRestClient.create(restUri, TIMEOUT, new BasicCredentials("admin", secrets.adminPassword()));
        monitor =
                ConnectRestClient.create(restUri, TIMEOUT, new BasicCredentials("monitor", secrets.monitorPassword()));
    }

    @AfterAll
    static void stopServers() {
        for (ServerProcessUnderTest server : new ServerProcessUnderTest[] {worker, mqtt, kafka}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void anonymousRequestsAndWrongPasswordsAreRefused() {
        ConnectRestClient anonymous = ConnectRestClient.anonymous(restUri, TIMEOUT);
        for (String path :
                new String[] {"/", "/connectors", "/connectors/" + CONNECTOR + "/config", "/admin/loggers"}) {
            HttpResponse<String> answer = anonymous.get(path);
            assertThat(answer.statusCode()).as(path).isEqualTo(401);
            assertThat(answer.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Basic realm="));
        }
        assertThat(client("admin", "not-the-password").get("/connectors").statusCode())
                .isEqualTo(401);
        assertThat(client("monitor", secrets.adminPassword()).get("/connectors").statusCode())
                .as("the admin's password is not the monitor's")
                .isEqualTo(401);
        assertThat(client("someone", secrets.adminPassword()).get("/connectors").statusCode())
                .isEqualTo(401);
        assertRefused(() -> client("admin", "not-the-password").restartConnectorAndTasks(CONNECTOR), 401);
        assertRefused(() -> ConnectRestClient.anonymous(restUri, TIMEOUT).deleteConnector(CONNECTOR), 401);
    }

    @Test
    void theMonitorReadsButCannotChangeAnything() {
        assertThat(monitor.get("/connectors").statusCode()).isEqualTo(200);
        assertThat(monitor.connectorStatus(CONNECTOR)).isPresent();
        Map<String, String> configuration = monitor.connectorConfig(CONNECTOR).orElseThrow();

        assertRefused(() -> monitor.putConnectorConfig(CONNECTOR, configuration), 403);
        assertRefused(() -> monitor.restartConnectorAndTasks(CONNECTOR), 403);
        assertRefused(() -> monitor.restartTask(CONNECTOR, 0), 403);
        assertRefused(() -> monitor.deleteConnector(CONNECTOR), 403);

        assertThat(admin.connectorConfig(CONNECTOR)).as("still registered").contains(configuration);
    }

    @Test
    void theAdminMayChangeTheConnector() {
        Map<String, String> configuration = admin.connectorConfig(CONNECTOR).orElseThrow();

        assertThat(admin.putConnectorConfig(CONNECTOR, configuration))
                .as("an update")
                .isFalse();
        admin.restartConnectorAndTasks(CONNECTOR);

        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(
                        admin.connectorStatus(CONNECTOR).map(ConnectorStatus::fromJson))
                .hasValueSatisfying(status ->
                        assertThat(status.running()).as(status.summary()).isTrue()));
    }

    @Test
    void theHealthCheckNeedsNoCredentials() {
        HttpResponse<String> health =
                ConnectRestClient.anonymous(restUri, TIMEOUT).get("/ingest/health");

        assertThat(health.statusCode()).isIn(200, 503);
        assertThat(health.body()).contains("\"healthy\"").doesNotContain(secrets.ingestSecret());
    }

    @Test
    void noRestAnswerAndNoLogLineHoldsASecret() throws Exception {
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(
                        monitor.connectorStatus(CONNECTOR).map(ConnectorStatus::fromJson))
                .hasValueSatisfying(status ->
                        assertThat(status.running()).as(status.summary()).isTrue()));

        Map<String, String> configuration = admin.connectorConfig(CONNECTOR).orElseThrow();
        assertThat(configuration).containsEntry("mqtt.password", secrets.passwordReference());
        String tasks = admin.connectorTasks(CONNECTOR).orElseThrow();
        assertThat(tasks).contains("mqtt.password").contains(secrets.passwordReference());
        for (String answer : new String[] {
            configuration.toString(),
            tasks,
            admin.connectorStatus(CONNECTOR).orElseThrow(),
            admin.get("/connectors?expand=info&expand=status").body(),
            admin.get("/connectors/" + CONNECTOR).body()
        }) {
            assertThat(answer).doesNotContain(secrets.ingestSecret());
        }

        String log = Files.readString(worker.log(), StandardCharsets.UTF_8);
        assertThat(log).as("the worker started and ran its task").contains("Connect worker ready on");
        assertThat(log)
                .doesNotContain(secrets.ingestSecret())
                .doesNotContain(secrets.adminPassword())
                .doesNotContain(secrets.monitorPassword());
    }

    @Test
    void aBodyOverTheLimitIsRefusedAndOnlyALoggedInPrincipalGetsThatFar() throws Exception {
        String body = "{\"padding\":\"" + "x".repeat(MAX_REQUEST_BYTES) + "\"}";
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> asAdmin = http.send(
                oversizedPut(body)
                        .header(
                                "Authorization",
                                new BasicCredentials("admin", secrets.adminPassword()).authorizationHeader())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(asAdmin.statusCode()).as(asAdmin.body()).isEqualTo(413);
        assertThat(asAdmin.body()).contains("larger than " + MAX_REQUEST_BYTES + " bytes");

        HttpResponse<String> anonymous = http.send(oversizedPut(body).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode())
                .as("refused for its credentials first")
                .isEqualTo(401);
        assertThat(admin.connectorConfig("oversized"))
                .as("nothing was registered")
                .isEmpty();
    }

    @Test
    void requestsBeyondTheConcurrencyLimitAreRefusedUntilOneEnds() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            // Logged-in uploads that never finish their body: each holds a permit while the worker waits for it.
            for (int i = 0; i < MAX_CONCURRENT_REQUESTS; i++) {
                held.add(startChunkedUpload("held-" + i));
            }
            await().atMost(TIMEOUT).untilAsserted(() -> {
                HttpResponse<String> refused = monitor.get("/connectors");
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
                assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            });
            HttpResponse<String> health =
                    ConnectRestClient.anonymous(restUri, TIMEOUT).get("/ingest/health");
            assertThat(health.body())
                    .as("the health check is not counted")
                    .contains("\"healthy\"")
                    .doesNotContain("as many requests");
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        // A client gone in the middle of its body gives its permit back.
        await().atMost(TIMEOUT)
                .untilAsserted(() ->
                        assertThat(monitor.get("/connectors").statusCode()).isEqualTo(200));
    }

    private static HttpRequest.Builder oversizedPut(String body) {
        return HttpRequest.newBuilder(restUri.resolve("/connectors/oversized/config"))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body));
    }

    private static Socket startChunkedUpload(String connector) throws Exception {
        Socket socket = new Socket(restUri.getHost(), restUri.getPort());
        OutputStream output = socket.getOutputStream();
        output.write(("PUT /connectors/" + connector + "/config HTTP/1.1\r\n"
                        + "Host: " + restUri.getAuthority() + "\r\n"
                        + "Authorization: "
                        + new BasicCredentials("admin", secrets.adminPassword()).authorizationHeader() + "\r\n"
                        + "Content-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n"
                        + "1\r\n{\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        output.flush();
        return socket;
    }

    private static ConnectRestClient client(String user, String password) {
        return new ConnectRestClient(
                restUri,
                java.net.http.HttpClient.newHttpClient(),
                TIMEOUT,
                Optional.of(new BasicCredentials(user, password)));
    }

    private static void assertRefused(ThrowingCallable call, int status) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ConnectRestException.class, e -> assertThat(e.statusCode())
                .isEqualTo(status));
    }
}
