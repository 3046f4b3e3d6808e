package io.fleetlake.stack.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.mqtt.PrincipalKind;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackMqttIdentityTest {
    @TempDir
    Path dataDirectory;

    private StackMqttIdentity identity() {
        return StackMqttIdentity.of(StackSettings.from(ConfigSource.empty(), dataDirectory));
    }

    @Test
    void firstStartCreatesTheStacksPrincipalsWithOwnerOnlySecrets() throws Exception {
        Map<String, String> secrets = identity().ensure();

        PrincipalRegistry registry = identity().administration().registry();
        assertThat(registry.authenticate("fleet-ingest", secrets.get("fleet-ingest")))
                .map(principal -> principal.kind())
                .contains(PrincipalKind.INGEST);
        assertThat(registry.authenticate("fleet-simulator", secrets.get("fleet-simulator")))
                .map(principal -> principal.grant().covers("VH-0340"))
                .contains(true);
        assertThat(registry.authenticate("fleet-bench", secrets.get("fleet-bench")))
                .isPresent();
        assertThat(registry.authenticate("VH-0001", secrets.get("VH-0001")))
                .map(principal -> principal.kind())
                .contains(PrincipalKind.DEVICE);
        assertThat(registry.principals()).hasSize(6);
        Path secretsFolder = dataDirectory.resolve("secrets");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretsFolder)))
                .isEqualTo("rwx------");
        for (String file : new String[] {"mqtt.properties", "simulator-devices.properties"}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretsFolder.resolve(file))))
                    .isEqualTo("rw-------");
        }
        assertThat(Files.readString(identity().simulatorDeviceCredentials()))
                .contains("VH-0001=" + secrets.get("VH-0001"))
                .doesNotContain("fleet-ingest");
        assertThat(StackMqttIdentity.registryFile(StackSettings.from(ConfigSource.empty(), dataDirectory)))
                .isEqualTo(dataDirectory.resolve("mqtt/identity/principals.json"));
    }

    @Test
    void laterStartsKeepTheSecretsAndRepairWhatWasRevokedOrRotatedByHand() {
        Map<String, String> first = identity().ensure();

        assertThat(identity().ensure()).isEqualTo(first);

        identity().administration().revoke("fleet-ingest");
        identity().administration().rotate("fleet-simulator");
        Map<String, String> repaired = identity().ensure();

        assertThat(repaired.get("fleet-ingest")).isNotEqualTo(first.get("fleet-ingest"));
        assertThat(repaired.get("fleet-simulator")).isNotEqualTo(first.get("fleet-simulator"));
        assertThat(repaired.get("fleet-bench")).isEqualTo(first.get("fleet-bench"));
        PrincipalRegistry registry = identity().administration().registry();
        assertThat(registry.authenticate("fleet-ingest", repaired.get("fleet-ingest")))
                .isPresent();
        assertThat(registry.authenticate("fleet-simulator", repaired.get("fleet-simulator")))
                .isPresent();
        assertThat(identity().secret("fleet-simulator")).contains(repaired.get("fleet-simulator"));
    }
}
