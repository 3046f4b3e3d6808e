package io.fleetlake.stack.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.CatalogDatabase;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerDefinitionsTest {
    private static final StackSettings SETTINGS = StackSettings.from(
            ConfigSource.of(Map.of(
                    "catalog.port", "28181",
                    "s3.access-key", "fleet-it",
                    "s3.secret-key", "secret\\key",
                    "s3.region", "eu-west-1")),
            Path.of("data"));

    @Test
    void runsTheImagesTheComposeDeploymentPins() throws Exception {
        String compose = Files.readString(Path.of("..", "docker-compose.yml"));

        assertThat(List.of(
                        ContainerDefinitions.KAFKA_IMAGE,
                        ContainerDefinitions.MINIO_IMAGE,
                        ContainerDefinitions.POSTGRES_IMAGE,
                        ContainerDefinitions.TRINO_IMAGE,
                        ContainerDefinitions.REDIS_IMAGE,
                        ContainerDefinitions.MOSQUITTO_IMAGE))
                .allSatisfy(image -> assertThat(compose).contains("image: " + image + "\n"));
    }

    @Test
    void publishesAContainerPortOnTheStackAddressOnly() {
        String binding = ContainerDefinitions.portBinding("127.0.0.1", 19092, 9092);

        assertThat(binding).isEqualTo("127.0.0.1:19092:9092");
        PortBinding parsed = PortBinding.parse(binding);
        assertThat(parsed.getBinding().getHostIp()).isEqualTo("127.0.0.1");
        assertThat(parsed.getBinding().getHostPortSpec()).isEqualTo("19092");
        assertThat(parsed.getExposedPort()).isEqualTo(ExposedPort.tcp(9092));
        assertThatThrownBy(() -> ContainerDefinitions.portBinding("::1", 19092, 9092))
                .hasMessageContaining("use 127.0.0.1");
    }

    @Test
    void kafkaKeepsTopicCreationToTheStackAndRunsOnOneReplica() {
        assertThat(ContainerDefinitions.kafkaEnvironment())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false",
                        "KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1",
                        "KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1"));
    }

    @Test
    void minioSignsForTheConfiguredRegionAndCreatesTheBucketWithoutCredentialsOnTheCommandLine() {
        assertThat(ContainerDefinitions.minioEnvironment(SETTINGS))
                .containsExactly(Map.entry("MINIO_SITE_REGION", "eu-west-1"));

        List<String> command = ContainerDefinitions.createBucketCommand("warehouse");

        assertThat(command).hasSize(3).startsWith("sh", "-c");
        assertThat(command.get(2))
                .isEqualTo("mc alias set fleet http://127.0.0.1:9000 \"$MINIO_ROOT_USER\" \"$MINIO_ROOT_PASSWORD\""
                        + " > /dev/null && mc mb --ignore-existing fleet/warehouse")
                .doesNotContain(SETTINGS.s3SecretKey());
        assertThatThrownBy(() -> ContainerDefinitions.createBucketCommand("warehouse; rm -rf /"))
                .hasMessageContaining("is not an S3 bucket name");
    }

    @Test
    void redisReadsTheStacksAclFileAndNeverEvicts(@TempDir Path data) {
        StackSettings settings =
                settings(Map.of("redis.maxmemory", "64mb", StackSettings.DATA_DIRECTORY, data.toString()));

        assertThat(ContainerDefinitions.redisCommand(settings))
                .containsExactly(
                        "redis-server",
                        "--protected-mode",
                        "no",
                        "--save",
                        "",
                        "--maxmemory",
                        "64mb",
                        "--maxmemory-policy",
                        "noeviction",
                        "--aclfile",
                        "/usr/local/etc/redis/users.acl");
        assertThat(String.join(" ", ContainerDefinitions.redisCommand(settings)))
                .doesNotContain(settings.redisPassword(RedisRole.ADMIN));
    }

    @Test
    void mosquittoQueuesQos1MessagesForSlowSessionsInsteadOfDroppingThem() {
        List<String> lines =
                ContainerDefinitions.mosquittoConfiguration().lines().toList();

        assertThat(lines)
                .contains(
                        "listener 1883",
                        "allow_anonymous true",
                        "persistence false",
                        "max_queued_messages 500000",
                        "max_queued_bytes 536870912",
                        "max_inflight_messages 1000",
                        "log_dest stdout");
        assertThat(lines).filteredOn(line -> line.startsWith("listener")).hasSize(1);
    }

    @Test
    void trinoReadsTheCatalogOnTheHostAndTheFilesOnMinio() {
        Map<String, String> properties = ContainerDefinitions.trinoCatalogProperties(SETTINGS);

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("connector.name", "iceberg");
        expected.put("iceberg.catalog.type", "rest");
        expected.put("iceberg.rest-catalog.uri", "http://host.testcontainers.internal:28181");
        expected.put("iceberg.rest-catalog.warehouse", "s3://warehouse/");
        expected.put("iceberg.rest-catalog.view-endpoints-enabled", "true");
        expected.put("fs.native-s3.enabled", "true");
        expected.put("s3.endpoint", "http://minio:9000");
        expected.put("s3.path-style-access", "true");
        expected.put("s3.region", "eu-west-1");
        expected.put("s3.aws-access-key", "fleet-it");
        expected.put("s3.aws-secret-key", "secret\\key");
        assertThat(properties).containsExactlyEntriesOf(expected);
        assertThat(SETTINGS.port(StackPort.CATALOG)).isEqualTo(28181);
        assertThat(ContainerDefinitions.render(properties))
                .startsWith("connector.name=iceberg\niceberg.catalog.type=rest\n")
                .contains("s3.aws-secret-key=secret\\\\key\n");
    }

    @Test
    void theCatalogUsesThePostgresContainerAndWaitsForIt() {
        CatalogDatabase database = ContainerDefinitions.catalogDatabase("127.0.0.1", 25432, "pg-secret");

        assertThat(database.configuration())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "catalog.jdbc-url", "jdbc:postgresql://127.0.0.1:25432/catalog",
                        "catalog.jdbc-user", "fleet",
                        "catalog.jdbc-password", "pg-secret"));
        assertThat(database.dependencies()).isEqualTo(Set.of("postgres"));
        assertThat(database.toString()).doesNotContain("pg-secret").contains("catalog.jdbc-password=***");
    }

    private static StackSettings settings(Map<String, String> keys) {
        return StackSettings.from(ConfigSource.of(keys), Path.of("data"));
    }
}
