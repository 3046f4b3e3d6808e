package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.connect.client.ConnectRestClient.ConnectRestException;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.FlinkRestStrangers;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import io.fleetlake.stack.identity.StackMqttIdentity;
import io.fleetlake.stack.identity.StackServiceSecrets;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The stack's Connect REST API, planning API and the pipeline's Flink REST API, as the launcher starts them with the secrets it generated for the data
 * folder: nobody gets in without them, the Connect monitor only reads, and neither Connect's answers nor its log hold
 * the ingest principal's MQTT secret.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class ServiceSecurityIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @Test
    void connectRefusesStrangersAndLetsTheMonitorOnlyRead(RunningStack running) {
        StackSettings settings = running.settings();
        URI connect = ConnectAccess.uri(settings);
        assertThat(ConnectRestClient.anonymous(connect, TIMEOUT)
                        .get("/connectors")
                        .statusCode())
                .isEqualTo(401);
        BasicCredentials admin = StackServiceSecrets.of(settings).connectAdmin();
        assertThat(new ConnectRestClient(
                                connect,
                                HTTP,
                                TIMEOUT,
                                Optional.of(new BasicCredentials(admin.user(), admin.password() + "x")))
                        .get("/connectors")
                        .statusCode())
                .isEqualTo(401);

        ConnectRestClient monitor = ConnectAccess.monitor(settings);
        assertThat(monitor.connectorStatus(FleetStack.CONNECTOR_NAME)).isPresent();
        assertThatThrownBy(() -> monitor.pauseConnector(FleetStack.CONNECTOR_NAME))
                .isInstanceOfSatisfying(ConnectRestException.class, e -> assertThat(e.statusCode())
                        .isEqualTo(403));
        assertThatThrownBy(() -> monitor.deleteConnector(FleetStack.CONNECTOR_NAME))
                .isInstanceOfSatisfying(ConnectRestException.class, e -> assertThat(e.statusCode())
                        .isEqualTo(403));
    }

    @Test
    void connectShowsTheMqttSecretNeitherInItsAnswersNorInItsLog(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        String ingestSecret =
                StackMqttIdentity.of(settings).secret(StackMqttIdentity.INGEST).orElseThrow();
        ConnectRestClient admin = ConnectAccess.admin(settings);

        Map<String, String> configuration =
                admin.connectorConfig(FleetStack.CONNECTOR_NAME).orElseThrow();
        assertThat(configuration.get("mqtt.password")).startsWith("${file:").endsWith(":fleet-ingest}");
        assertThat(configuration.toString()).doesNotContain(ingestSecret);
        assertThat(admin.connectorTasks(FleetStack.CONNECTOR_NAME).orElseThrow())
                .doesNotContain(ingestSecret);
        assertThat(Files.readString(settings.logFile(FleetStack.CONNECT), StandardCharsets.UTF_8))
                .contains("Connect worker ready on")
                .doesNotContain(ingestSecret)
                .doesNotContain(StackServiceSecrets.of(settings).connectAdmin().password())
                .doesNotContain(
                        StackServiceSecrets.of(settings).connectMonitor().password());
    }

    @Test
    void thePlanningApiAnswersOnlyWithItsToken(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        URI routes = URI.create(settings.planningUri() + PlanningApi.ROUTES_PATH);

        assertThat(send(HttpRequest.newBuilder(routes)).statusCode()).isEqualTo(401);
        assertThat(send(HttpRequest.newBuilder(routes).header("Authorization", "Bearer not-the-token"))
                        .statusCode())
                .isEqualTo(401);
        String token = StackServiceSecrets.of(settings).planningToken();
        assertThat(send(HttpRequest.newBuilder(routes).header("Authorization", "Bearer " + token))
                        .statusCode())
                .isEqualTo(200);
        assertThat(Files.readString(settings.logFile(FleetStack.PIPELINE), StandardCharsets.UTF_8))
                .doesNotContain(token);
    }

    /**
     * The embedded pipeline's MiniCluster requires the data folder's client certificate like the cluster's JobManager
     * ({@code FlinkRestSecurityIT}): a local stranger speaking TLS without a certificate fails the handshake, one speaking
     * plain HTTP gets only a redirect to HTTPS; neither can read or cancel the running job, and the store password is
     * on no command line.
     */
    @Test
    void theEmbeddedPipelinesFlinkRestApiRequiresTheClientCertificate(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        FlinkRestClient stack = StackFlinkRest.client(settings);
        assertThat(settings.flinkRestUri()).startsWith("https://");
        String jobId = stack.jobs().stream()
                .filter(FlinkRestClient.JobSummary::running)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No running job at " + stack.restUri()))
                .id();

        HttpClient noCertificate = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .sslContext(FlinkRestStrangers.trustingOnly(settings))
                .build();
        String plainUri = settings.flinkRestUri().replace("https://", "http://");
        for (HttpRequest request : FlinkRestStrangers.requests(settings.flinkRestUri(), jobId, TIMEOUT)) {
            assertThatThrownBy(() -> noCertificate.send(request, HttpResponse.BodyHandlers.ofString()))
                    .as("TLS without a certificate: %s %s", request.method(), request.uri())
                    .isInstanceOf(IOException.class);
        }
        // Flink's REST endpoint answers plain HTTP with nothing but a redirect to its HTTPS address, or, when it has
        // closed the connection before the request was read whole, with no answer at all (as in cluster mode,
        // FlinkRestSecurityIT): either way the stranger reads and changes nothing.
        for (HttpRequest request : FlinkRestStrangers.requests(plainUri, jobId, TIMEOUT)) {
            HttpResponse<String> answer;
            try {
                answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException noAnswer) {
                continue;
            }
            assertThat(answer.statusCode())
                    .as("plain HTTP: %s %s: %s", request.method(), request.uri(), answer.body())
                    .isBetween(300, 399);
            assertThat(answer.headers().firstValue("Location"))
                    .hasValueSatisfying(location -> assertThat(location).startsWith("https://"));
        }
        assertThat(stack.job(jobId).orElseThrow().state())
                .as("the job after the strangers' cancels")
                .isEqualTo("RUNNING");

        String password = StackFlinkRestIdentity.of(settings).storePassword();
        assertThat(running.stack()
                        .component(FleetStack.PIPELINE)
                        .processHandle()
                        .flatMap(process -> process.info().commandLine())
                        .orElseThrow())
                .doesNotContain(password);
        assertThat(Files.readString(settings.logFile(FleetStack.PIPELINE), StandardCharsets.UTF_8))
                .doesNotContain(password);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
