package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.trino.JdkLocator.SearchLocation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up and failure handling, with a fake {@code java} standing in for Trino; the real server is in the IT. */
class TrinoServerTest {
    @TempDir
    Path root;

    @Test
    void commandStartsTrinoMainWithJvmConfigNodePropertiesAndEtcFiles() {
        TrinoConfig config = config(Map.of("trino.data-dir", "/data", "trino.server-dir", "/server"));
        TrinoEtc etc = TrinoEtc.generate(config, "127.0.0.1", 18080, 18443, "", new java.security.SecureRandom());

        List<String> command =
                TrinoServer.command(Path.of("/jdk/bin/java"), etc, Path.of("/data/etc"), Path.of("/server"));

        List<String> expected = new ArrayList<>();
        expected.add("/jdk/bin/java");
        expected.addAll(etc.jvmOptions());
        expected.addAll(List.of(
                "-Dnode.environment=fleet",
                "-Dnode.id=fleet-coordinator",
                "-Dnode.data-dir=/data",
                "-Dnode.bind-ip=127.0.0.1",
                "-Dnode.internal-address=127.0.0.1",
                "-Dconfig=/data/etc/config.properties",
                "-Dlog.levels-file=/data/etc/log.properties",
                "-cp",
                "/server/lib/*",
                "io.trino.server.TrinoServer"));
        assertThat(command).isEqualTo(expected);
    }

    @Test
    void serverFolderWithoutIcebergPluginIsReportedWithTheBuildCommand() throws IOException {
        Path serverDirectory =
                Files.createDirectories(root.resolve("server/lib")).getParent();
        TrinoServer server = new TrinoServer(config(Map.of("trino.server-dir", serverDirectory.toString())), noJdk());

        assertThatThrownBy(server::start)
                .isInstanceOf(TrinoServerException.class)
                .hasMessageContaining("is not an assembled Trino server (it needs lib/ and plugin/iceberg/)")
                .hasMessageContaining("mvn -pl trino package");
    }

    @Test
    void processThatExitsWhileStartingIsReportedWithItsLog() throws IOException {
        Path javaHome = fakeJdk("echo \"fake trino started with: $*\"\nexit 3\n");
        TrinoServer server = new TrinoServer(config(Map.of()), locatorOf(javaHome));

        assertThatThrownBy(server::start)
                .isInstanceOf(TrinoServerException.class)
                .hasMessage("Trino exited with status 3 while starting; see the server log " + server.logFile());
        assertThat(server.logFile()).content().contains("fake trino started with: -server -Xmx1G");
        assertThat(root.resolve("data/etc/catalog/iceberg.properties")).exists();
    }

    @Test
    void serverThatNeverBecomesReadyTimesOutAndIsStopped() throws IOException {
        Path javaHome = fakeJdk("exec sleep 60\n");
        TrinoServer server = new TrinoServer(config(Map.of("trino.startup-timeout", "1s")), locatorOf(javaHome));

        assertThatThrownBy(server::start)
                .isInstanceOf(TrinoServerException.class)
                .hasMessageContaining("Trino did not finish starting within PT1S")
                .hasMessageContaining("see the server log " + server.logFile())
                .hasMessageContaining("raise trino.startup-timeout");
        assertThat(ProcessHandle.of(server.processId()).filter(ProcessHandle::isAlive))
                .isEmpty();
    }

    @Test
    void portInUseIsReportedBeforeStartingTheProcess() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            TrinoServer server = new TrinoServer(
                    config(Map.of("trino.port", Integer.toString(port))), locatorOf(fakeJdk("exit 0\n")));

            assertThatThrownBy(server::start)
                    .isInstanceOf(TrinoServerException.class)
                    .hasMessageStartingWith("127.0.0.1:" + port + " is already in use")
                    .hasMessageEndingWith("set trino.port to another port, or 0 for a free one");
            assertThat(server.logFile()).doesNotExist();
        }
    }

    @Test
    void serverStartsOnce() throws IOException {
        TrinoServer server = new TrinoServer(config(Map.of()), locatorOf(fakeJdk("exit 1\n")));
        assertThatThrownBy(server::start).isInstanceOf(TrinoServerException.class);

        assertThatThrownBy(server::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("starts once");
    }

    @Test
    void closeBeforeStartIsHarmless() throws InterruptedException {
        TrinoServer server = new TrinoServer(config(Map.of()), noJdk());

        server.close();

        assertThat(server.isReady()).isFalse();
        assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
    }

    private TrinoConfig config(Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>();
        values.put("trino.port", "0");
        values.put("trino.data-dir", root.resolve("data").toString());
        values.put("trino.server-dir", fakeServer().toString());
        values.put("trino.catalog-uri", "http://127.0.0.1:1");
        values.put("trino.s3-endpoint", "http://127.0.0.1:1");
        values.put("trino.https-port", "0");
        values.putAll(overrides);
        return TrinoConfig.from(ConfigSource.of(SecurityValues.with(values)));
    }

    private Path fakeServer() {
        Path server = root.resolve("trino-server");
        try {
            Files.createDirectories(server.resolve("lib"));
            Files.createDirectories(server.resolve("plugin/iceberg"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return server;
    }

    /** A JDK 24 whose {@code bin/java} is the given shell script. */
    private Path fakeJdk(String script) throws IOException {
        Path home = Files.createDirectories(root.resolve("jdk-24/bin")).getParent();
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"24.0.2\"\n");
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n" + script);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    private static JdkLocator locatorOf(Path javaHome) {
        return new JdkLocator(Optional.of(javaHome), Map.of(), List.of());
    }

    private JdkLocator noJdk() {
        return new JdkLocator(Optional.empty(), Map.of(), List.<SearchLocation>of());
    }
}
