package io.fleetlake.deployment;

import static io.fleetlake.deployment.ServiceConfigurations.CATALOG;
import static io.fleetlake.deployment.ServiceConfigurations.FLEET_EXPORTER;
import static io.fleetlake.deployment.ServiceConfigurations.FLINK_JOB_MANAGER;
import static io.fleetlake.deployment.ServiceConfigurations.GEOCODE;
import static io.fleetlake.deployment.ServiceConfigurations.TABLE_MAINTENANCE;
import static io.fleetlake.deployment.ServiceConfigurations.TRINO;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.catalog.CatalogServerConfig;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.maintenance.MaintenanceConfig;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.operations.exporter.ExporterConfig;
import io.fleetlake.spark.geocode.GeocodeConfig;
import io.fleetlake.stack.compose.ComposeSecrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose deployment's catalog runs with OAuth2 and every service that talks to it holds a client of the right
 * role: with a {@code .env} and clients file that {@code fleet secrets init} generated from {@code .env.example}, each
 * service's credential, as its configuration class reads it, authenticates against the clients file the catalog
 * container reads, with the expected role.
 */
class ComposeCatalogAuthenticationTest {
    private static final String CLIENTS_IN_CONTAINER = "/fleet/catalog/clients.properties";

    @TempDir
    Path directory;

    private ComposeFile compose;
    private CatalogClients clients;

    @BeforeEach
    void generateSecrets() throws Exception {
        Files.copy(Repository.file(Repository.ENVIRONMENT_EXAMPLE), directory.resolve(ComposeSecrets.EXAMPLE_FILE));
        ComposeSecrets secrets = ComposeSecrets.in(directory);
        secrets.initialise();
        compose =
                ComposeFile.read(Repository.file(Repository.COMPOSE_FILE), DotEnvFile.read(secrets.environmentFile()));
        clients = new CatalogClients(secrets.catalogClientsFile());
    }

    private ConfigSource source(String service) {
        return ConfigSource.empty().withEnvironment(compose.environment(service));
    }

    @Test
    void theCatalogRequiresTokensAndReadsTheRenderedClientsFile() {
        CatalogServerConfig catalog = (CatalogServerConfig) ServiceConfigurations.read(CATALOG, source(CATALOG));

        assertThat(catalog.authentication()).isEqualTo(CatalogServerConfig.Authentication.OAUTH2);
        assertThat(catalog.clientsFile()).contains(Path.of(CLIENTS_IN_CONTAINER));
        assertThat(compose.volumes(CATALOG))
                .contains("./" + ComposeSecrets.CATALOG_CLIENTS + ":" + CLIENTS_IN_CONTAINER + ":ro");
        assertThat(catalog.tokenSigningKey()).isPresent();
    }

    @Test
    void everyCatalogClientServiceHoldsItsRolesCredential() {
        FleetPipelineConfig pipeline =
                (FleetPipelineConfig) ServiceConfigurations.read(FLINK_JOB_MANAGER, source(FLINK_JOB_MANAGER));
        MaintenanceConfig maintenance =
                (MaintenanceConfig) ServiceConfigurations.read(TABLE_MAINTENANCE, source(TABLE_MAINTENANCE));
        GeocodeConfig geocode = (GeocodeConfig) ServiceConfigurations.read(GEOCODE, source(GEOCODE));
        ExporterConfig exporter = (ExporterConfig) ServiceConfigurations.read(FLEET_EXPORTER, source(FLEET_EXPORTER));
        Map<String, String> trino = PropertiesFiles.trinoProperties(
                Repository.file("deploy/trino/etc/catalog/iceberg.properties"), compose.environment(TRINO));

        assertRole(pipeline.catalogCredential().orElseThrow(), CatalogRole.WRITER);
        assertRole(maintenance.catalogCredential().orElseThrow(), CatalogRole.MAINTAINER);
        assertRole(geocode.catalog().catalogCredential().orElseThrow(), CatalogRole.MAINTAINER);
        assertRole(exporter.sources().catalogCredential().orElseThrow(), CatalogRole.READER);
        assertThat(trino)
                .containsEntry("iceberg.rest-catalog.security", "OAUTH2")
                .containsEntry("iceberg.rest-catalog.oauth2.server-uri", "http://catalog:8181/v1/oauth/tokens");
        assertRole(
                CatalogCredential.parse("trino", trino.get("iceberg.rest-catalog.oauth2.credential")),
                CatalogRole.MAINTAINER);
    }

    @Test
    void aSecretOfTheExampleIsNoCredential() {
        ComposeFile example = Repository.exampleDeployment();
        CatalogCredential placeholder = ((FleetPipelineConfig) ServiceConfigurations.read(
                        FLINK_JOB_MANAGER,
                        ConfigSource.empty().withEnvironment(example.environment(FLINK_JOB_MANAGER))))
                .catalogCredential()
                .orElseThrow();

        assertThat(clients.authenticate(placeholder.clientId(), placeholder.secret()))
                .isEmpty();
    }

    private void assertRole(CatalogCredential credential, CatalogRole role) {
        assertThat(clients.authenticate(credential.clientId(), credential.secret()))
                .as(credential.clientId())
                .contains(role);
    }
}
