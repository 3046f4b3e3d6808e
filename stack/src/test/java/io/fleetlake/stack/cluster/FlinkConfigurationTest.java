package io.fleetlake.stack.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkConfigurationTest {
    @TempDir
    Path directory;

    @Test
    void everyEndpointIsBoundToTheStackHostAndStateGoesToRocksDbAndS3() {
        StackSettings stack = stack(Map.of());
        Map<String, String> options = configuration(stack, Map.of()).options();

        assertThat(options)
                .containsEntry("jobmanager.rpc.address", "127.0.0.1")
                .containsEntry("jobmanager.bind-host", "127.0.0.1")
                .containsEntry("rest.bind-address", "127.0.0.1")
                .containsEntry("taskmanager.bind-host", "127.0.0.1")
                .containsEntry("taskmanager.host", "127.0.0.1")
                .containsEntry("rest.port", Integer.toString(stack.port(StackPort.FLINK)))
                .containsEntry("jobmanager.rpc.port", Integer.toString(stack.port(StackPort.FLINK_RPC)))
                .containsEntry("taskmanager.jvm-exit-on-oom", "true")
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.dir", "s3://flink/checkpoints")
                .containsEntry("execution.checkpointing.savepoint-dir", "s3://flink/savepoints")
                .containsEntry("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")
                .containsEntry("s3.endpoint", stack.s3Endpoint())
                .containsEntry("s3.path.style.access", "true")
                .containsEntry("taskmanager.numberOfTaskSlots", "2")
                .doesNotContainKeys(FlinkClusterSettings.RESTORE_KEYS.toArray(String[]::new));
    }

    @Test
    void theRestApiRequiresAClientCertificateAndKeepsJarSubmissionForTheStack() throws Exception {
        StackSettings stack = stack(Map.of());
        Map<String, String> options = configuration(stack, Map.of()).options();

        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(stack);
        String password = identity.storePassword();
        assertThat(password).hasSizeGreaterThanOrEqualTo(40);
        assertThat(options)
                .containsEntry("security.ssl.rest.enabled", "true")
                .containsEntry("security.ssl.rest.authentication-enabled", "true")
                .containsEntry("security.ssl.rest.keystore", identity.keyStore().toString())
                .containsEntry(
                        "security.ssl.rest.truststore", identity.trustStore().toString())
                .containsEntry("security.ssl.rest.keystore-password", password)
                .containsEntry("security.ssl.rest.truststore-password", password)
                .containsEntry("security.ssl.rest.key-password", password)
                .containsEntry("web.submit.enable", "true")
                .containsEntry("web.cancel.enable", "false")
                .containsEntry("security.ssl.internal.enabled", "true")
                .containsEntry(
                        "security.ssl.internal.keystore", identity.keyStore().toString())
                .containsEntry(
                        "security.ssl.internal.truststore",
                        identity.trustStore().toString())
                .containsEntry("security.ssl.internal.keystore-password", password)
                .containsEntry("security.ssl.internal.key-password", password)
                .containsEntry("security.ssl.internal.truststore-password", password);
        // Flink's default cipher suite (TLS_RSA_WITH_AES_128_CBC_SHA) cannot work with the CA's EC keys.
        assertThat(options.get("security.ssl.algorithms"))
                .contains("ECDHE_ECDSA")
                .doesNotContain("TLS_RSA_");
        // The same password on the next start: a new one would not open the stores Flink already read.
        assertThat(StackFlinkRestIdentity.of(stack).storePassword()).isEqualTo(password);
        Path secrets = stack.dataDirectory().resolve("secrets").resolve(StackFlinkRestIdentity.SECRET_FILE);
        for (Path file : java.util.List.of(secrets, identity.keyStore(), identity.trustStore())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as("%s", file)
                    .isEqualTo("rw-------");
        }
        // The stores open with the password, and the client loads them.
        assertThat(identity.clientTls()).isNotNull();
    }

    @Test
    void theUsersFlinkOptionsWinOverTheStacks() {
        Map<String, String> options = configuration(stack(Map.of()), Map.of("cluster.flink.heartbeat.timeout", "90s"))
                .options();

        assertThat(options).containsEntry("heartbeat.timeout", "90s");
    }

    @Test
    void theFileIsOwnerOnlyAndEveryValueAQuotedScalar() throws IOException {
        FlinkConfiguration configuration = configuration(stack(Map.of("s3.secret-key", "it's: secret")), Map.of());

        configuration.write();

        Path file = configuration.configDirectory().resolve(FlinkConfiguration.CONFIG_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(file))
                .contains("s3.secret-key: 'it''s: secret'\n")
                .contains("state.backend.type: 'rocksdb'\n");
        assertThat(configuration.logConfigFile()).exists();
    }

    private StackSettings stack(Map<String, String> keys) {
        Map<String, String> all = new java.util.HashMap<>(keys);
        all.put(StackSettings.FREE_PORTS, "true");
        return StackSettings.from(ConfigSource.of(all), directory.resolve("data"));
    }

    private FlinkConfiguration configuration(StackSettings stack, Map<String, String> clusterKeys) {
        return new FlinkConfiguration(
                stack, FlinkClusterSettings.from(ConfigSource.of(clusterKeys)), directory.resolve("flink-cluster"));
    }
}
