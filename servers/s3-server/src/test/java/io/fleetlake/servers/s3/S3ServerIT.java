package io.fleetlake.servers.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.process.FreePorts;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Starts {@link S3ServerMain} as a child JVM from the module jar and its launch class path, exactly as the embedded
 * launcher does, and talks to it with the AWS SDK v2 (which would clash with the SDK inside the S3Proxy jar if both
 * shared one JVM).
 */
class S3ServerIT {
    private static final Logger LOG = LoggerFactory.getLogger(S3ServerIT.class);
    private static final String BUCKET = "warehouse";
    /** The keys the test gives the server, in its environment (as a launcher hands secrets over, never as arguments). */
    private static final String ACCESS_KEY = "it-access-" + UUID.randomUUID();

    private static final String SECRET_KEY = "it-secret-" + UUID.randomUUID();
    private static final String POSITIONS_FILE = "fleet/positions/data/part-00000.parquet";

    @TempDir
    Path directory;

    @Test
    void signedClientPutsListsAndGetsObjectsThatSurviveARestart() throws Exception {
        int port = freePort();
        Path dataDirectory = directory.resolve("data");

        try (ServerProcess server = ServerProcess.start(port, dataDirectory, directory.resolve("first.log"));
                S3Client client = client(server.endpoint(), SECRET_KEY)) {
            client.putObject(
                    request -> request.bucket(BUCKET).key(POSITIONS_FILE), RequestBody.fromString("positions"));
            client.putObject(
                    request -> request.bucket(BUCKET).key("fleet/vehicle_minutes/data/part-00000.parquet"),
                    RequestBody.fromString("minutes"));

            List<String> keys =
                    client
                            .listObjectsV2(request -> request.bucket(BUCKET).prefix("fleet/positions/"))
                            .contents()
                            .stream()
                            .map(S3Object::key)
                            .toList();
            assertThat(keys).containsExactly(POSITIONS_FILE);
            assertThat(client.getObjectAsBytes(request -> request.bucket(BUCKET).key(POSITIONS_FILE))
                            .asUtf8String())
                    .isEqualTo("positions");
            assertThat(client.listBuckets().buckets())
                    .extracting(bucket -> bucket.name())
                    .containsExactlyInAnyOrder(BUCKET, "checkpoints");
        }

        try (ServerProcess server = ServerProcess.start(port, dataDirectory, directory.resolve("second.log"));
                S3Client client = client(server.endpoint(), SECRET_KEY)) {
            assertThat(client.getObjectAsBytes(request -> request.bucket(BUCKET).key(POSITIONS_FILE))
                            .asUtf8String())
                    .isEqualTo("positions");
            assertThat(server.log()).contains("Bucket warehouse exists; keeping its objects");
        }
    }

    @Test
    void wrongSecretAndAnonymousRequestsAreRefusedWhileTheHealthCheckIsOpen() throws Exception {
        int port = freePort();

        try (ServerProcess server =
                        ServerProcess.start(port, directory.resolve("data"), directory.resolve("server.log"));
                S3Client client = client(server.endpoint(), "not-the-secret-key")) {
            assertThatThrownBy(() -> client.listObjectsV2(request -> request.bucket(BUCKET)))
                    .isInstanceOfSatisfying(S3Exception.class, exception -> assertThat(exception.statusCode())
                            .isEqualTo(403));

            assertThat(anonymousGet(server.endpoint().resolve("/" + BUCKET)).statusCode())
                    .isEqualTo(403);

            HttpResponse<String> health = anonymousGet(server.endpoint().resolve("/healthz"));
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"OK\"");
        }
    }

    private static HttpResponse<String> anonymousGet(URI uri) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static S3Client client(URI endpoint, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(S3ServerConfig.DEFAULT_REGION))
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, secretKey)))
                .forcePathStyle(true)
                .build();
    }

    private static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }

    /** The server as a separate JVM, started like the embedded launcher starts it. */
    private static final class ServerProcess implements AutoCloseable {
        private final Process process;
        private final int port;
        private final Path log;

        private ServerProcess(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        static ServerProcess start(int port, Path dataDirectory, Path log) throws IOException, InterruptedException {
            String classPath = System.getProperty("s3.module-jar")
                    + File.pathSeparator
                    + Files.readString(Path.of(System.getProperty("s3.launch-classpath")))
                            .strip();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-cp",
                    classPath,
                    S3ServerMain.class.getName()));
            command.addAll(List.of("--set", "s3.port=" + port));
            command.addAll(List.of("--set", "s3.data-dir=" + dataDirectory));
            command.addAll(List.of("--set", "s3.buckets=warehouse,checkpoints"));
            long startNanos = System.nanoTime();
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().put("FLEET_S3_ACCESS_KEY", ACCESS_KEY);
            builder.environment().put("FLEET_S3_SECRET_KEY", SECRET_KEY);
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            ServerProcess server = new ServerProcess(process, port, log);
            try {
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            if (!process.isAlive()) {
                                throw new AssertionError(
                                        "S3 server exited with " + process.exitValue() + ":\n" + server.log());
                            }
                            return server.log().contains("S3 server ready on 127.0.0.1:" + port);
                        });
            } catch (RuntimeException | AssertionError e) {
                server.close();
                throw e;
            }
            LOG.info("S3 server process ready in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
            return server;
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + port);
        }

        String log() throws IOException {
            return Files.readString(log);
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("S3 server did not stop within 30 s of SIGTERM");
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while stopping the S3 server", e);
            }
        }
    }
}
