package io.fleetlake.model.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CatalogClientPropertiesTest {
    @Test
    void withoutCredentialOrKeysOnlyTheCatalogAndStorage() {
        CatalogClientProperties properties = new CatalogClientProperties(
                "http://127.0.0.1:8181",
                "s3://warehouse/",
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                "us-east-1",
                Optional.empty());

        assertThat(properties.toMap())
                .containsExactly(
                        entry("uri", "http://127.0.0.1:8181"),
                        entry("warehouse", "s3://warehouse/"),
                        entry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
                        entry("s3.path-style-access", "false"),
                        entry("client.region", "us-east-1"));
    }

    @Test
    void everyGivenValueAndTheOAuth2Login() {
        CatalogClientProperties properties = new CatalogClientProperties(
                "http://catalog:8181/",
                "s3://warehouse/",
                Optional.of("http://127.0.0.1:9000"),
                true,
                Optional.of("access"),
                Optional.of("secret"),
                "eu-central-1",
                Optional.of(new CatalogCredential("fleet-writer", "writer-secret")));

        assertThat(properties.toMap())
                .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
                .containsEntry("s3.path-style-access", "true")
                .containsEntry("s3.access-key-id", "access")
                .containsEntry("s3.secret-access-key", "secret")
                .containsEntry("client.region", "eu-central-1")
                .containsEntry("rest.auth.type", "oauth2")
                .containsEntry("credential", "fleet-writer:writer-secret")
                .containsEntry("oauth2-server-uri", "http://catalog:8181/v1/oauth/tokens");
        assertThat(properties.toString()).doesNotContain("secret");
    }

    @Test
    void describeNamesTheCredentialByItsClientIdAndRedactsTheSecretKey() {
        CatalogClientProperties properties = new CatalogClientProperties(
                "http://catalog:8181",
                "s3://warehouse/",
                Optional.of("http://minio:9000"),
                true,
                Optional.of("fleet-access"),
                Optional.of("storage-secret"),
                "eu-west-1",
                Optional.of(new CatalogCredential("fleet-writer", "writer-secret")));

        assertThat(properties.describe())
                .isEqualTo("catalogUri=http://catalog:8181, catalogCredential=fleet-writer, warehouse=s3://warehouse/,"
                        + " s3Endpoint=http://minio:9000, s3AccessKey=fleet-access, s3SecretKey=<redacted>,"
                        + " s3Region=eu-west-1");
    }

    @Test
    void describeSaysWhatIsAbsent() {
        CatalogClientProperties properties = new CatalogClientProperties(
                "http://127.0.0.1:8181",
                "s3://warehouse/",
                Optional.empty(),
                true,
                Optional.empty(),
                Optional.empty(),
                "us-east-1",
                Optional.empty());

        assertThat(properties.describe())
                .isEqualTo("catalogUri=http://127.0.0.1:8181, catalogCredential=<none>, warehouse=s3://warehouse/,"
                        + " s3Endpoint=<none>, s3AccessKey=<default chain>, s3SecretKey=<default chain>,"
                        + " s3Region=us-east-1");
    }
}
