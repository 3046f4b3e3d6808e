package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.identity.SecretFile;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The secrets the stack generated for its data folder (the catalog clients' secrets and token signing key, the S3 keys,
 * the MQTT principals' secrets) are used by the running stack and appear nowhere else: not in any log file, not on the
 * command line of any process the stack started ({@code /proc/<pid>/cmdline}, what {@code ps} shows), not in the
 * catalog's metrics; the catalog's clients file holds hashes only.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class SecretsExposureIT {
    /** Generated secrets are 43 characters; anything this short would be a false alarm, not a secret. */
    private static final int SHORTEST_SECRET = 16;

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void noGeneratedSecretIsLoggedOnACommandLineOrInTheMetrics(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        URI catalogMetrics =
                URI.create("http://" + settings.host() + ":" + settings.port(StackPort.CATALOG_METRICS) + "/metrics");
        // The components authenticated with their secrets: tokens were issued and tables loaded with them.
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(get(catalogMetrics))
                .contains("endpoint=\"POST /v1/oauth/tokens\",status=\"200\"")
                .contains("endpoint=\"GET /v1/namespaces/{namespace}/tables/{table}\",status=\"200\""));

        Map<String, String> secrets = generatedSecrets(settings.secretsDirectory());
        assertThat(secrets)
                .containsKeys(
                        "catalog.properties:" + StackCatalogIdentity.WRITER,
                        "catalog.properties:" + StackCatalogIdentity.READER,
                        "catalog.properties:token-signing-key",
                        "s3.properties:secret-key",
                        "mqtt.properties:fleet-ingest",
                        // Trino's users and its internal shared secret: the stack's probes logged in with them.
                        "trino.properties:admin",
                        "trino.properties:analyst",
                        "trino.properties:fleet-dashboard",
                        "trino.properties:fleet-monitor",
                        "trino.properties:internal-shared-secret");
        assertThat(secrets.get("s3.properties:secret-key")).isEqualTo(settings.s3SecretKey());

        Map<String, String> places = new LinkedHashMap<>();
        logFiles(settings.dataDirectory()).forEach(file -> places.put("log " + file, read(file)));
        int logs = places.size();
        ProcessHandle.current().descendants().forEach(process -> commandLine(process.pid())
                .ifPresent(line -> places.put("command line of " + process.pid(), line)));
        int processes = places.size() - logs;
        places.put("catalog metrics", get(catalogMetrics));
        places.put("clients file", read(StackCatalogIdentity.clientsFile(settings)));

        assertThat(logs).as("log files scanned").isGreaterThanOrEqualTo(8);
        assertThat(processes).as("processes of the stack scanned").isGreaterThanOrEqualTo(8);
        List<String> found = new ArrayList<>();
        places.forEach((place, text) -> secrets.forEach((name, secret) -> {
            if (text.contains(secret)) {
                found.add(name + " in " + place);
            }
        }));
        assertThat(found)
                .as("generated secrets found outside the secrets folder")
                .isEmpty();
        for (Path file : List.of(
                settings.secretsDirectory().resolve("catalog.properties"),
                settings.secretsDirectory().resolve(StackSettings.S3_SECRETS_FILE),
                StackCatalogIdentity.clientsFile(settings))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as(file.toString())
                    .isEqualTo("rw-------");
        }
    }

    /** Every value of every secrets file, by {@code file:name}. */
    private static Map<String, String> generatedSecrets(Path secretsDirectory) throws IOException {
        Map<String, String> secrets = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(secretsDirectory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".properties"))
                    .toList()) {
                new SecretFile(file, "read by the test").load().forEach((name, secret) -> {
                    // An access key names the storage identity, like a user name; its secret key is the secret.
                    if (secret.length() >= SHORTEST_SECRET && !name.equals("access-key")) {
                        secrets.put(file.getFileName() + ":" + name, secret);
                    }
                });
            }
        }
        return secrets;
    }

    /** The stack's logs ({@code <data-dir>/logs}) and Trino's ({@code <data-dir>/trino/var/log}). */
    private static List<Path> logFiles(Path dataDirectory) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path folder : List.of(dataDirectory.resolve("logs"), dataDirectory.resolve("trino/var/log"))) {
            if (Files.isDirectory(folder)) {
                try (Stream<Path> walk = Files.walk(folder)) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        }
        return files;
    }

    /** What {@code ps} shows for a process: its arguments, NUL-separated in {@code /proc/<pid>/cmdline}. */
    private static Optional<String> commandLine(long pid) {
        try {
            byte[] bytes = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return Optional.of(new String(bytes, StandardCharsets.UTF_8).replace('\0', ' '));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
