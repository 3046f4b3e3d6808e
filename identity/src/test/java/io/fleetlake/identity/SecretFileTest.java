package io.fleetlake.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretFileTest {
    @TempDir
    Path directory;

    @Test
    void aSecretIsGeneratedOnceAndKeptOwnerOnly() throws Exception {
        Path path = directory.resolve("secrets").resolve("catalog.properties");
        SecretFile file = new SecretFile(path, "catalog clients");

        String first = file.secret("pipeline");
        String again = new SecretFile(path, "catalog clients").secret("pipeline");
        String other = file.secret("trino");

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first).hasSize(43);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path.getParent())))
                .isEqualTo("rwx------");
        assertThat(file.load()).containsOnlyKeys("pipeline", "trino");
        assertThat(Files.readString(path)).startsWith("# catalog clients (name=secret); owner-only.\n");
    }

    @Test
    void storeReplacesEverySecretAndRefusesWhatItCouldNotReadBack() {
        SecretFile file = new SecretFile(directory.resolve("mqtt.properties"), "MQTT");
        file.store(Map.of("fleet-ingest", "s1", "fleet-bench", "s2"));
        file.store(Map.of("fleet-ingest", "s3"));

        assertThat(file.load()).isEqualTo(Map.of("fleet-ingest", "s3"));
        assertThatThrownBy(() -> file.store(Map.of("a=b", "x"))).hasMessage("Not a secret's name or value: a=b");
    }
}
