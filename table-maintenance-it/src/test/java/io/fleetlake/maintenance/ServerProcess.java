package io.fleetlake.maintenance;

import static org.awaitility.Awaitility.await;

import io.fleetlake.common.process.FreePorts;
import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogRole;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the project's servers as a child JVM from its module's build output, as the stack launches it: the S3 server
 * (S3Proxy bundles an AWS SDK that clashes with Iceberg's) and the REST catalog (whose Iceberg classes cannot share a
 * JVM with Iceberg's Flink runtime bundle, which relocates Jackson).
 */
final class ServerProcess implements AutoCloseable {
    static final String ACCESS_KEY = "fleet";
    static final String SECRET_KEY = "fleet-secret-key";

    private final Process process;
    private final int port;
    private final Path dataDirectory;
    private final Path log;
    private CatalogCredential catalogCredential;

    private ServerProcess(Process process, int port, Path dataDirectory, Path log) {
        this.process = process;
        this.port = port;
        this.dataDirectory = dataDirectory;
        this.log = log;
    }

    /** The S3 server with the bucket {@code warehouse}, keeping its objects as files under {@code directory/s3}. */
    static ServerProcess s3(Path directory) throws IOException {
        int port = freePort();
        Path dataDirectory = directory.resolve("s3");
        return start(
                "servers/s3-server",
                "server-s3",
                "io.fleetlake.servers.s3.S3ServerMain",
                List.of(
                        "s3.host=127.0.0.1",
                        "s3.port=" + port,
                        "s3.data-dir=" + dataDirectory,
                        "s3.access-key=" + ACCESS_KEY,
                        "s3.secret-key=" + SECRET_KEY),
                port,
                dataDirectory,
                directory.resolve("s3.log"));
    }

    /** The REST catalog on a SQLite file under {@code directory/catalog}; it creates the fleet tables at start. */
    static ServerProcess catalog(Path directory, String s3Endpoint) throws IOException {
        int port = freePort();
        Path dataDirectory = directory.resolve("catalog");
        // The tests' one catalog client, a maintainer: it writes the test tables and maintains them.
        IssuedSecret issued = new CatalogClients(dataDirectory.resolve("clients.properties"))
                .issue("it-maintainer", CatalogRole.MAINTAINER);
        ServerProcess server = start(
                "iceberg-catalog",
                "iceberg-catalog",
                "io.fleetlake.catalog.RestCatalogServerMain",
                List.of(
                        "catalog.host=127.0.0.1",
                        "catalog.port=" + port,
                        "catalog.data-dir=" + dataDirectory,
                        "catalog.s3-endpoint=" + s3Endpoint,
                        "catalog.s3-access-key=" + ACCESS_KEY,
                        "catalog.s3-secret-key=" + SECRET_KEY),
                port,
                dataDirectory,
                directory.resolve("catalog.log"));
        server.catalogCredential = new CatalogCredential(issued.name(), issued.secret());
        return server;
    }

    /** The catalog's client credential, {@code <client id>:<secret>}. */
    String catalogCredential() {
        return catalogCredential.value();
    }

    /** The Iceberg REST client properties that authenticate with {@link #catalogCredential()}. */
    Map<String, String> catalogAuthentication() {
        return CatalogAuthentication.clientProperties(endpoint(), catalogCredential);
    }

    private static ServerProcess start(
            String module,
            String artifactId,
            String mainClass,
            List<String> settings,
            int port,
            Path dataDirectory,
            Path log)
            throws IOException {
        Path home =
                Path.of(System.getProperty("fleet.home", "..")).toAbsolutePath().normalize();
        Path target = home.resolve(module).resolve("target");
        String version = System.getProperty("fleet.version", "0.1.0-SNAPSHOT");
        Path jar = target.resolve(artifactId + "-" + version + ".jar");
        Path classpath = target.resolve("launch/classpath.txt");
        if (!Files.isRegularFile(jar) || !Files.isRegularFile(classpath)) {
            throw new IllegalStateException(module + " is not built (" + jar + " or " + classpath
                    + " is missing): run `mvn -o -B -pl table-maintenance-it -am verify`, which builds it first");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                jar + File.pathSeparator + Files.readString(classpath).trim(),
                mainClass));
        settings.forEach(setting -> {
            command.add("--set");
            command.add(setting);
        });
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ServerProcess server = new ServerProcess(process, port, dataDirectory, log);
        try {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(module + " exited: " + Files.readString(log));
                        }
                        return Files.readString(log).contains("ready on");
                    });
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** {@code http://127.0.0.1:<port>}. */
    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Where the server keeps the object {@code key} of {@code bucket} (its file system back end). */
    Path objectFile(String bucket, String key) {
        return dataDirectory.resolve(bucket).resolve(key);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        return FreePorts.pick(InetAddress.getLoopbackAddress());
    }

    @Override
    public String toString() {
        return "server on port " + port + " (log " + log + ")";
    }
}
