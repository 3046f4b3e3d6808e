package io.fleetlake.model.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogCredentialTest {
    @Test
    void parsesClientIdAndSecretAndPrintsOnlyTheId() {
        CatalogCredential credential = CatalogCredential.parse("pipeline.catalog-credential", "fleet-writer:a:b=c");

        assertThat(credential).isEqualTo(new CatalogCredential("fleet-writer", "a:b=c"));
        assertThat(credential.value()).isEqualTo("fleet-writer:a:b=c");
        assertThat(credential.toString()).contains("fleet-writer").doesNotContain("a:b=c");
    }

    @Test
    void aValueWithoutIdOrSecretIsRefusedWithoutRepeatingIt() {
        for (String value : new String[] {"only-a-secret", ":secret", "fleet-writer:"}) {
            assertThatThrownBy(() -> CatalogCredential.parse("pipeline.catalog-credential", value))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pipeline.catalog-credential")
                    .hasMessageNotContaining(value);
        }
    }

    @Test
    void rolesIncludeTheOnesBelowThem() {
        assertThat(CatalogRole.ADMIN.includes(CatalogRole.MAINTAINER)).isTrue();
        assertThat(CatalogRole.MAINTAINER.includes(CatalogRole.WRITER)).isTrue();
        assertThat(CatalogRole.WRITER.includes(CatalogRole.READER)).isTrue();
        assertThat(CatalogRole.READER.includes(CatalogRole.WRITER)).isFalse();
        assertThat(CatalogRole.WRITER.includes(CatalogRole.MAINTAINER)).isFalse();
        assertThat(CatalogRole.MAINTAINER.includes(CatalogRole.ADMIN)).isFalse();
        assertThat(CatalogRole.named(" Maintainer ")).isEqualTo(CatalogRole.MAINTAINER);
        assertThatThrownBy(() -> CatalogRole.named("root")).hasMessageContaining("reader, writer, maintainer, admin");
    }

    @Test
    void clientPropertiesMakeIcebergsClientFetchATokenFromTheCatalog() {
        assertThat(CatalogAuthentication.clientProperties(
                        "http://127.0.0.1:18181/", new CatalogCredential("fleet-reader", "s3cret")))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "rest.auth.type", "oauth2",
                        "credential", "fleet-reader:s3cret",
                        "oauth2-server-uri", "http://127.0.0.1:18181/v1/oauth/tokens",
                        "scope", "catalog",
                        "token-refresh-enabled", "true"));
    }
}
