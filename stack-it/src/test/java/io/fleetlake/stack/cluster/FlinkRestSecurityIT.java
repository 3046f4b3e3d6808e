package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.LocalCertificateAuthority.TlsFiles;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import io.fleetlake.stack.process.FleetHome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink REST API of the cluster pipeline mode, on a real JobManager started by the stack's own component in a data
 * folder of its own (no TaskManager, no job: the REST endpoint is what is tested): it speaks only TLS and requires a
 * client certificate issued by the data folder's CA. A client without a certificate, with one from another CA, or
 * speaking plain HTTP gets nothing, not even {@code /overview}, so it can neither cancel a job nor upload a jar; the
 * stack's client, presenting the generated certificate, reads it. The JobManager's RPC port requires the same
 * certificate. The store password is in the owner-only {@code
 * config.yaml}, never on the JobManager's command line.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FlinkRestSecurityIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path dataDirectory;

    private static StackSettings settings;
    private static Component jobManager;

    @BeforeAll
    static void startJobManager() {
        settings = StackSettings.from(
                ConfigSource.of(Map.of(
                        PipelineMode.KEY,
                        PipelineMode.CLUSTER.toString(),
                        StackSettings.FREE_PORTS,
                        "true",
                        StackSettings.DATA_DIRECTORY,
                        dataDirectory.toString())),
                dataDirectory);
        FlinkClusterComponents cluster = new FlinkClusterComponents(
                settings, FleetHome.locate(), FlinkClusterSettings.from(settings.configuration()));
        jobManager = cluster.components(
                        Set.of(), new FlinkClusterComponents.JobSubmission("pipeline", Set.of(), List::of, 1))
                .get(0);
        assertThat(jobManager.name()).isEqualTo(FlinkClusterComponents.JOB_MANAGER);
        jobManager.start();
        // The component's health probe is the stack's client with the generated certificate.
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    assertThat(jobManager.failure()).isEmpty();
                    return jobManager.isHealthy();
                });
    }

    @AfterAll
    static void stopJobManager() {
        if (jobManager != null) {
            jobManager.stop();
        }
    }

    @Test
    void theStacksClientPresentsTheGeneratedCertificateAndReads() throws IOException {
        assertThat(settings.flinkRestUri()).startsWith("https://");
        FlinkRestClient client = StackFlinkRest.client(settings);
        JsonNode overview = client.get("/overview");
        assertThat(overview.has("flink-version")).as("%s", overview).isTrue();
        // The web UI hides its cancel button; jar submission stays, since the stack submits the job that way.
        JsonNode features = client.get("/config").path("features");
        assertThat(features.path("web-cancel").asBoolean(true)).isFalse();
        assertThat(features.path("web-submit").asBoolean(false)).isTrue();
    }

    @Test
    void aClientWithoutACertificateFailsTheHandshake() throws Exception {
        HttpClient trustsButPresentsNothing = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .sslContext(FlinkRestStrangers.trustingOnly(settings))
                .build();
        for (HttpRequest request : FlinkRestStrangers.requests(settings.flinkRestUri(), TIMEOUT)) {
            assertThatThrownBy(() -> trustsButPresentsNothing.send(request, HttpResponse.BodyHandlers.ofString()))
                    .as("%s %s", request.method(), request.uri())
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aCertificateFromAnotherAuthorityIsRefused() throws Exception {
        Path other = dataDirectory.resolve("other-ca");
        TlsFiles files = LocalCertificateAuthority.ensureForMutualTls(
                other, "Stranger", List.of(settings.host()), Clock.systemUTC());
        // Under the stack's store password, which the client reads both stores with.
        char[] password = StackFlinkRestIdentity.of(settings).storePassword().toCharArray();
        Path keyStore = other.resolve("key.p12");
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        LocalCertificateAuthority.keyStore(files, password).store(content, password);
        Files.write(keyStore, content.toByteArray());
        // It trusts the stack's CA, so that only its own certificate can be what the JobManager refuses.
        FlinkRestClient stranger = FlinkRestClient.builder(settings.flinkRestUri())
                .tls(FlinkRestTls.load(
                        keyStore, StackFlinkRestIdentity.of(settings).trustStore(), password))
                .build();
        assertThatThrownBy(() -> stranger.get("/overview"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("GET /overview to the Flink REST API at " + settings.flinkRestUri() + " failed");
    }

    @Test
    void theExportedPemIsACertificateTheJobManagerAccepts(@TempDir Path exported) throws Exception {
        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
        Path pem = identity.exportClientPem(exported);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(pem)))
                .isEqualTo("rw-------");
        assertThat(exported.resolve(StackFlinkRestIdentity.CA_PEM)).exists();
        // What curl --cert reads (the chain, then the key), turned back into a key store for the JDK's client.
        char[] password = identity.storePassword().toCharArray();
        Path keyStore = exported.resolve("from-pem.p12");
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        LocalCertificateAuthority.keyStore(new TlsFiles(pem, pem), password).store(content, password);
        Files.write(keyStore, content.toByteArray());
        FlinkRestClient fromPem = FlinkRestClient.builder(settings.flinkRestUri())
                .tls(FlinkRestTls.load(keyStore, identity.trustStore(), password))
                .build();
        assertThat(fromPem.get("/overview").has("flink-version")).isTrue();
    }

    @Test
    void plainHttpGetsNoAnswer() {
        FlinkRestClient plain = FlinkRestClient.builder(settings.flinkRestUri().replace("https://", "http://"))
                .connectTimeout(TIMEOUT)
                .callTimeout(TIMEOUT)
                .build();
        assertThatThrownBy(() -> plain.get("/overview")).isInstanceOf(IOException.class);
        assertThat(plain.reachable()).isFalse();
    }

    /**
     * The JobManager's RPC port (Pekko, which TaskManagers and job clients talk to) speaks only TLS and requires the
     * data folder's certificate: a client without one fails the handshake, one with it completes it.
     */
    @Test
    void theRpcPortRequiresTheCertificateToo() throws Exception {
        int rpcPort = settings.port(StackPort.FLINK_RPC);
        try (SSLSocket stranger = (SSLSocket)
                FlinkRestStrangers.trustingOnly(settings).getSocketFactory().createSocket(settings.host(), rpcPort)) {
            stranger.setSoTimeout((int) TIMEOUT.toMillis());
            assertThatThrownBy(() -> {
                        stranger.startHandshake();
                        stranger.getInputStream().read();
                    })
                    .isInstanceOf(IOException.class);
        }
        try (SSLSocket member = (SSLSocket) FlinkRestStrangers.presentingTheCertificate(settings)
                .getSocketFactory()
                .createSocket(settings.host(), rpcPort)) {
            member.setSoTimeout((int) TIMEOUT.toMillis());
            member.startHandshake();
            assertThat(member.getSession().getPeerCertificates()).isNotEmpty();
        }
    }

    @Test
    void theStorePasswordIsInTheOwnerOnlyConfigurationNotOnTheCommandLine() throws IOException {
        String password = StackFlinkRestIdentity.of(settings).storePassword();
        String commandLine = jobManager
                .processHandle()
                .flatMap(process -> process.info().commandLine())
                .orElseThrow();
        assertThat(commandLine).doesNotContain(password);
        Path config =
                FlinkClusterComponents.directory(settings).resolve("conf").resolve(FlinkConfiguration.CONFIG_FILE);
        assertThat(Files.readString(config)).contains("security.ssl.rest.authentication-enabled: 'true'");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
                .isEqualTo("rw-------");
        for (Path store : List.of(
                StackFlinkRestIdentity.of(settings).keyStore(),
                StackFlinkRestIdentity.of(settings).trustStore())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store)))
                    .isEqualTo("rw-------");
        }
        assertThat(Files.readString(settings.logFile(FlinkClusterComponents.JOB_MANAGER)))
                .doesNotContain(password);
    }
}
