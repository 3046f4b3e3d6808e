package io.fleetlake.identity.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.model.catalog.CatalogRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogClientsTest {
    @TempDir
    Path directory;

    @Test
    void anIssuedSecretAuthenticatesItsClientWithItsRoleAndOnlyItsHashIsStored() throws Exception {
        Path file = directory.resolve("catalog").resolve("clients.properties");
        CatalogClients clients = new CatalogClients(file);

        IssuedSecret issued = clients.issue("fleet-writer", CatalogRole.WRITER);

        assertThat(clients.authenticate("fleet-writer", issued.secret())).contains(CatalogRole.WRITER);
        assertThat(clients.authenticate("fleet-writer", issued.secret() + "x")).isEmpty();
        assertThat(clients.authenticate("fleet-reader", issued.secret())).isEmpty();
        String content = Files.readString(file);
        assertThat(content).doesNotContain(issued.secret()).contains("fleet-writer=writer $7$1000$");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(issued.secret()).hasSize(43);
    }

    @Test
    void rotationReplacesTheSecretAndRevocationRemovesTheClient() {
        CatalogClients clients = new CatalogClients(directory.resolve("clients.properties"));
        IssuedSecret first = clients.issue("fleet-maintainer", CatalogRole.MAINTAINER);
        clients.issue("fleet-reader", CatalogRole.READER);

        IssuedSecret rotated = clients.rotate("fleet-maintainer");

        assertThat(rotated.secret()).isNotEqualTo(first.secret());
        assertThat(clients.authenticate("fleet-maintainer", first.secret())).isEmpty();
        assertThat(clients.authenticate("fleet-maintainer", rotated.secret())).contains(CatalogRole.MAINTAINER);
        assertThat(clients.revoke("fleet-maintainer")).isTrue();
        assertThat(clients.role("fleet-maintainer")).isEmpty();
        assertThat(clients.revoke("fleet-maintainer")).isFalse();
        assertThat(clients.role("fleet-reader")).contains(CatalogRole.READER);
        assertThatThrownBy(() -> clients.rotate("fleet-nobody")).hasMessageContaining("fleet-nobody");
    }

    @Test
    void noFileIsNoClientsAndABadNameIsRefused() {
        CatalogClients clients = new CatalogClients(directory.resolve("missing.properties"));

        assertThat(clients.clients()).isEmpty();
        assertThat(clients.authenticate("fleet-admin", "anything")).isEmpty();
        assertThatThrownBy(() -> clients.issue("has space", CatalogRole.ADMIN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
