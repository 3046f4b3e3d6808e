package io.fleetlake.stack.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackCatalogIdentityTest {
    @TempDir
    Path dataDirectory;

    private StackSettings settings() {
        return StackSettings.from(ConfigSource.empty(), dataDirectory);
    }

    @Test
    void firstStartCreatesOneClientPerRoleWhoseSecretsAuthenticate() throws Exception {
        StackCatalogIdentity identity = StackCatalogIdentity.of(settings()).ensure();
        CatalogClients clients = new CatalogClients(StackCatalogIdentity.clientsFile(settings()));

        for (CatalogRole role : CatalogRole.values()) {
            CatalogCredential credential = identity.credential(role);
            assertThat(clients.authenticate(credential.clientId(), credential.secret()))
                    .as(role.label())
                    .contains(role);
        }
        assertThat(identity.credential(CatalogRole.WRITER).clientId()).isEqualTo(StackCatalogIdentity.WRITER);
        assertThat(identity.signingKey()).hasSize(43);
        Path secrets = dataDirectory.resolve("secrets").resolve("catalog.properties");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(StackCatalogIdentity.clientsFile(settings())))
                .doesNotContain(identity.credential(CatalogRole.ADMIN).secret());
        assertThat(identity.clientProperties(CatalogRole.READER))
                .containsEntry(
                        "credential", identity.credential(CatalogRole.READER).value());
    }

    @Test
    void laterStartsKeepTheSecretsAndRepairARevokedClient() {
        StackCatalogIdentity first = StackCatalogIdentity.of(settings()).ensure();
        String writer = first.credential(CatalogRole.WRITER).secret();
        String maintainer = first.credential(CatalogRole.MAINTAINER).secret();
        String key = first.signingKey();
        new CatalogClients(StackCatalogIdentity.clientsFile(settings())).revoke(StackCatalogIdentity.MAINTAINER);

        StackCatalogIdentity again = StackCatalogIdentity.of(settings()).ensure();

        assertThat(again.credential(CatalogRole.WRITER).secret()).isEqualTo(writer);
        assertThat(again.signingKey()).isEqualTo(key);
        assertThat(again.credential(CatalogRole.MAINTAINER).secret()).isNotEqualTo(maintainer);
        assertThat(new CatalogClients(StackCatalogIdentity.clientsFile(settings()))
                        .authenticate(
                                StackCatalogIdentity.MAINTAINER,
                                again.credential(CatalogRole.MAINTAINER).secret()))
                .contains(CatalogRole.MAINTAINER);
    }

    @Test
    void beforeTheFirstStartThereIsNoCredential() {
        StackCatalogIdentity identity = StackCatalogIdentity.of(settings());

        assertThat(identity.credentialIfCreated(CatalogRole.READER)).isEmpty();
        assertThatThrownBy(() -> identity.credential(CatalogRole.READER)).hasMessageContaining("fleet up");
    }

    @Test
    void theS3KeysAreGeneratedOncePerDataFolderUnlessConfigured() throws Exception {
        StackSettings generated = settings();
        String accessKey = generated.s3AccessKey();
        String secretKey = generated.s3SecretKey();

        assertThat(secretKey).hasSize(43).isNotEqualTo("fleet-secret-key");
        assertThat(settings().s3AccessKey()).isEqualTo(accessKey);
        assertThat(settings().s3SecretKey()).isEqualTo(secretKey);
        assertThat(generated.toString()).doesNotContain(secretKey);
        Path file = dataDirectory.resolve("secrets").resolve(StackSettings.S3_SECRETS_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");

        StackSettings configured = StackSettings.from(
                ConfigSource.of(Map.of("s3.access-key", "minio-user", "s3.secret-key", "minio-secret")),
                dataDirectory.resolve("other"));
        assertThat(configured.s3AccessKey()).isEqualTo("minio-user");
        assertThat(configured.s3SecretKey()).isEqualTo("minio-secret");
        assertThat(Files.exists(dataDirectory.resolve("other").resolve("secrets")))
                .isFalse();
    }
}
