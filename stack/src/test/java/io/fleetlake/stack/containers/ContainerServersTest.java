package io.fleetlake.stack.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MinIOContainer;
import org.testcontainers.containers.PostgreSQLContainer;

/** The containers as configured, before anything starts: building them does not touch Docker. */
class ContainerServersTest {
    private final StackSettings settings = StackSettings.from(
            ConfigSource.of(Map.of(StackSettings.FREE_PORTS, "true")), Path.of("target", "container-servers-test"));
    // The checkout: the module's parent folder, where Maven runs the tests.
    private final FleetHome home = new FleetHome(Path.of(".."), "0");
    private final ContainerServers servers = new ContainerServers(settings, home, 25432, "pg-secret");
    private final Map<String, ContainerComponent> components = servers.components().stream()
            .map(ContainerComponent.class::cast)
            .collect(Collectors.toMap(Component::name, Function.identity()));

    @Test
    void providesEveryServerOfTheStackAndTheCatalogDatabase() {
        assertThat(components)
                .containsOnlyKeys(
                        FleetStack.KAFKA,
                        FleetStack.S3,
                        FleetStack.MQTT,
                        FleetStack.REDIS,
                        FleetStack.TRINO,
                        ContainerDefinitions.POSTGRES);
        assertThat(components.get(FleetStack.TRINO).dependencies())
                .isEqualTo(Set.of(FleetStack.CATALOG, FleetStack.S3));
    }

    @Test
    void eachContainerPublishesItsPortsOnTheHostPortsTheSettingsChose() {
        String host = settings.host();
        assertBinding(FleetStack.KAFKA, host + ":" + settings.port(StackPort.KAFKA) + ":9092/tcp", 9092);
        assertBinding(FleetStack.S3, host + ":" + settings.port(StackPort.S3) + ":9000/tcp", 9000);
        assertBinding(FleetStack.MQTT, host + ":" + settings.port(StackPort.MQTT) + ":1883/tcp", 1883);
        assertBinding(FleetStack.REDIS, host + ":" + settings.port(StackPort.REDIS) + ":6379/tcp", 6379);
        assertBinding(ContainerDefinitions.POSTGRES, host + ":25432:5432/tcp", 5432);
        assertThat(container(FleetStack.TRINO).getPortBindings())
                .containsExactlyInAnyOrder(
                        host + ":" + settings.port(StackPort.TRINO) + ":8080/tcp",
                        host + ":" + settings.port(StackPort.TRINO_HTTPS) + ":8443/tcp");
        assertThat(container(FleetStack.TRINO).getExposedPorts()).containsExactlyInAnyOrder(8080, 8443);
        assertThat(components.get(FleetStack.KAFKA).endpoint())
                .isEqualTo("PLAINTEXT://" + settings.kafkaBootstrapServers());
        assertThat(components.get(FleetStack.TRINO).endpoint()).isEqualTo(settings.trinoJdbcUrl());
    }

    @Test
    void containersRunWithTheStackCredentials() {
        assertThat(container(FleetStack.KAFKA).getEnvMap())
                .containsAllEntriesOf(ContainerDefinitions.kafkaEnvironment())
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1");
        MinIOContainer minio = (MinIOContainer) container(FleetStack.S3);
        assertThat(minio.getUserName()).isEqualTo(settings.s3AccessKey());
        assertThat(minio.getPassword()).isEqualTo(settings.s3SecretKey());
        assertThat(minio.getEnvMap()).containsEntry("MINIO_SITE_REGION", settings.s3Region());
        assertThat(minio.getNetworkAliases()).contains("minio");
        assertThat(container(FleetStack.TRINO).getNetwork()).isSameAs(minio.getNetwork());
        assertThat(container(FleetStack.TRINO).getEnvMap())
                .containsAllEntriesOf(Map.of(
                        "TRINO_ADMIN_PASSWORD", settings.trinoSecrets().password(TrinoUser.ADMIN),
                        "TRINO_SHARED_SECRET", settings.trinoSecrets().sharedSecret()))
                .containsKey("TRINO_KEYSTORE_PASSWORD");
        assertThat(container(FleetStack.REDIS).getCommandParts())
                .containsExactlyElementsOf(ContainerDefinitions.redisCommand(settings));
        PostgreSQLContainer<?> postgres = (PostgreSQLContainer<?>) container(ContainerDefinitions.POSTGRES);
        assertThat(postgres.getDatabaseName()).isEqualTo("catalog");
        assertThat(postgres.getUsername()).isEqualTo("fleet");
        assertThat(postgres.getPassword()).isEqualTo("pg-secret");
    }

    @Test
    void theStackRunsTheCatalogOnPostgresWithTheSameServices() {
        EmbeddedStack stack =
                FleetStack.create(settings, new FleetHome(Path.of("target", "no-checkout"), "0"), servers);

        assertThat(stack.component(FleetStack.CATALOG).dependencies())
                .isEqualTo(Set.of(FleetStack.S3, ContainerDefinitions.POSTGRES));
        assertThat(stack.components())
                .extracting(Component::name)
                .contains(
                        FleetStack.KAFKA_TOPICS,
                        FleetStack.CONNECT,
                        FleetStack.PIPELINE,
                        FleetStack.PLANNING,
                        FleetStack.DASHBOARD);
        assertThat(servers.catalogDatabase().configuration())
                .containsEntry("catalog.jdbc-url", "jdbc:postgresql://" + settings.host() + ":25432/catalog");
    }

    @Test
    void aFreshProviderPicksAPostgresPortNoOtherServerUses() {
        ContainerServers fresh = ContainerServers.create(settings, home);

        String url = fresh.catalogDatabase().configuration().get("catalog.jdbc-url");
        int port = Integer.parseInt(url.replaceAll(".*:(\\d+)/catalog", "$1"));
        assertThat(settings.ports().values()).doesNotContain(port);
        assertThat(fresh.catalogDatabase().configuration().get("catalog.jdbc-password"))
                .isNotEqualTo(ContainerServers.create(settings, home)
                        .catalogDatabase()
                        .configuration()
                        .get("catalog.jdbc-password"));
    }

    private void assertBinding(String component, String binding, int containerPort) {
        GenericContainer<?> container = container(component);
        assertThat(container.getPortBindings()).as(component).containsExactly(binding);
        assertThat(container.getExposedPorts()).as(component).containsExactly(containerPort);
    }

    private GenericContainer<?> container(String component) {
        return components.get(component).container();
    }
}
