package io.fleetlake.stack.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.VehicleGrant;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.CatalogDatabase;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
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
                        "persistence false",
                        "max_queued_messages 500000",
                        "max_queued_bytes 536870912",
                        "max_inflight_messages 1000",
                        "log_dest stdout");
        assertThat(lines).filteredOn(line -> line.startsWith("listener")).hasSize(1);
    }

    @Test
    void mosquittoRefusesAnonymousClientsAndReadsThePasswordAndAclFilesWhereComposeHasThem() throws Exception {
        List<String> lines =
                ContainerDefinitions.mosquittoConfiguration().lines().toList();
        List<String> compose = Files.readAllLines(Path.of("..", "deploy", "mosquitto", "mosquitto.conf"));
        Predicate<String> security = line -> line.startsWith("allow_anonymous ")
                || line.startsWith("password_file ")
                || line.startsWith("acl_file ")
                || line.startsWith("per_listener_settings ");

        assertThat(lines)
                .contains(
                        "allow_anonymous false",
                        "password_file /mosquitto/auth/password_file",
                        "acl_file /mosquitto/auth/acl_file")
                .doesNotContain("allow_anonymous true");
        assertThat(lines.stream().filter(security))
                .containsExactlyInAnyOrderElementsOf(
                        compose.stream().filter(security).toList());
        assertThat(ContainerDefinitions.mosquittoAuthentication(PrincipalRegistry.EMPTY)
                        .keySet())
                .containsExactly("/mosquitto/auth/password_file", "/mosquitto/auth/acl_file");
    }

    @Test
    void mosquittoAdmitsTheRegistrysPrincipalsByHashWithinTheirGrants(@TempDir Path data) {
        PrincipalAdministration administration =
                new PrincipalAdministration(new RegistryFile(data.resolve("principals.json")));
        String deviceSecret = administration.addDevice("VH-0001").secret();
        String gatewaySecret = administration
                .grant("depot-1", VehicleGrant.ofPrefixes(List.of("VH-")), GrantMode.ADD)
                .orElseThrow()
                .secret();
        String ingestSecret = administration.addIngest("fleet-ingest").secret();

        Map<String, String> files = ContainerDefinitions.mosquittoAuthentication(administration.registry());

        String passwords = files.get("/mosquitto/auth/password_file");
        assertThat(passwords.lines().map(line -> line.substring(0, line.indexOf(':'))))
                .containsExactlyInAnyOrder("VH-0001", "depot-1", "fleet-ingest");
        assertThat(passwords.lines()).allSatisfy(line -> assertThat(line).contains(":$7$"));
        assertThat(passwords).doesNotContain(deviceSecret, gatewaySecret, ingestSecret);
        assertThat(files.get("/mosquitto/auth/acl_file").lines().toList())
                .contains(
                        "pattern write fleet/%u/position",
                        "user depot-1",
                        "topic deny fleet/depot-1/position",
                        "topic write fleet/VH-0001/position",
                        "user fleet-ingest",
                        "topic read fleet/+/position")
                .doesNotContain("topic write fleet/+/position", "topic read #", "topic readwrite #");
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
