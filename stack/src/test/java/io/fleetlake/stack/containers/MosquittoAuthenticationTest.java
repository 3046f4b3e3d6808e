package io.fleetlake.stack.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.RegistryFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.images.builder.Transferable;

/** The Mosquitto container's authentication files follow the registry; the part that needs a container is not here. */
class MosquittoAuthenticationTest {
    @TempDir
    Path data;

    @Test
    void aFileIsRenderedFromTheRegistryEachTimeItIsCopiedIntoTheContainer() throws IOException {
        PrincipalAdministration administration =
                new PrincipalAdministration(new RegistryFile(data.resolve("principals.json")));
        MosquittoAuthentication authentication = new MosquittoAuthentication(administration::registry);
        Transferable passwordFile = authentication.file(ContainerDefinitions.MOSQUITTO_PASSWORD_FILE);

        String secret = administration.addDevice("VH-0001").secret();
        Copied added = copy(passwordFile);
        administration.revoke("VH-0001");
        Copied revoked = copy(passwordFile);

        assertThat(added.name()).isEqualTo("mosquitto/auth/password_file");
        assertThat(added.mode() & 0777).as("owner-only").isEqualTo(0600);
        assertThat(added.content()).startsWith("VH-0001:$7$").doesNotContain(secret);
        assertThat(revoked.content()).doesNotContain("VH-0001");
        assertThat(authentication.render())
                .containsOnlyKeys(
                        ContainerDefinitions.MOSQUITTO_PASSWORD_FILE, ContainerDefinitions.MOSQUITTO_ACL_FILE);
    }

    @Test
    void onlyMosquittosAuthenticationFilesAreRendered() {
        MosquittoAuthentication authentication = new MosquittoAuthentication(
                () -> new PrincipalAdministration(new RegistryFile(data.resolve("principals.json"))).registry());

        assertThatThrownBy(() -> authentication.file("/mosquitto/config/mosquitto.conf"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not one of Mosquitto's authentication files");
    }

    @Test
    void theReloadGivesTheFilesToTheBrokersUserAndSignalsTheBroker() {
        assertThat(MosquittoAuthentication.reloadCommand())
                .containsExactly(
                        "sh",
                        "-c",
                        "chown mosquitto:mosquitto /mosquitto/auth/password_file /mosquitto/auth/acl_file"
                                + " && kill -HUP 1");
    }

    private record Copied(String name, int mode, String content) {}

    /** What Testcontainers sends to Docker for the file: a tar entry. */
    private static Copied copy(Transferable file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream archive = new TarArchiveOutputStream(bytes)) {
            file.transferTo(archive, "mosquitto/auth/password_file");
            archive.finish();
        }
        try (TarArchiveInputStream archive = new TarArchiveInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            TarArchiveEntry entry = (TarArchiveEntry) archive.getNextEntry();
            String content = new String(archive.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(archive.getNextEntry()).isNull();
            assertThat(entry.getSize()).isEqualTo(content.getBytes(StandardCharsets.UTF_8).length);
            return new Copied(entry.getName(), entry.getMode(), content);
        }
    }
}
