package io.fleetlake.flink.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.flink.rest.FlinkRestStores;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.validation.ValidationRules;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetPipelineConfigTest {
    @TempDir
    Path directory;

    @Test
    void defaults() {
        FleetPipelineConfig config =
                FleetPipelineConfig.from(ConfigSource.of(Map.of("pipeline.checkpoint-dir", directory.toString())));

        assertThat(config)
                .isEqualTo(new FleetPipelineConfig(
                        "127.0.0.1:9092",
                        "fleet-pipeline",
                        URI.create("http://127.0.0.1:8181"),
                        Optional.empty(),
                        "s3://warehouse/",
                        URI.create("http://127.0.0.1:9000"),
                        Optional.empty(),
                        Optional.empty(),
                        "us-east-1",
                        URI.create("redis://127.0.0.1:6379"),
                        Duration.ofDays(7),
                        Duration.ofSeconds(10),
                        Optional.of(directory),
                        2,
                        Duration.ofHours(24),
                        "127.0.0.1",
                        8081,
                        "fleet-pipeline",
                        URI.create("http://127.0.0.1:8090"),
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(1),
                        Duration.ofMinutes(5),
                        64,
                        1_048_576,
                        Duration.ofMillis(10),
                        new RestartConfig(Duration.ofSeconds(1), Duration.ofMinutes(1), 2.0, Duration.ofMinutes(10)),
                        new HandoverConfig(Optional.empty(), Duration.ofSeconds(20), Optional.empty()),
                        ValidationRules.defaults(),
                        EnrichmentConfig.defaults(),
                        Optional.empty(),
                        Optional.empty()));
        assertThat(config.kafkaClientProperties()).isEmpty();
        assertThat(config.restUri()).isEqualTo("http://127.0.0.1:8081");
        assertThat(config.validationRules().vehicleIdPattern().pattern()).isEqualTo("[A-Za-z0-9._-]{1,64}");
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> values = new HashMap<>();
        values.put("pipeline.kafka-bootstrap-servers", "10.0.0.1:19092,10.0.0.2:19092");
        values.put("pipeline.consumer-group", "group");
        values.put("pipeline.catalog-uri", "https://catalog:8443/api");
        values.put("pipeline.catalog-credential", "fleet-writer:writer-secret");
        values.put("pipeline.warehouse", "s3://lake/");
        values.put("pipeline.s3-endpoint", "https://s3:9443");
        values.put("pipeline.s3-access-key", "access");
        values.put("pipeline.s3-secret-key", "secret");
        values.put("pipeline.s3-region", "eu-south-2");
        values.put("pipeline.redis-uri", "rediss://redis:6380");
        values.put("pipeline.redis-vehicle-ttl", "36h");
        values.put("pipeline.checkpoint-interval", "30s");
        values.put("pipeline.checkpoint-dir", directory.resolve("checkpoints").toString());
        values.put("pipeline.parallelism", "4");
        values.put("pipeline.dedup-ttl", "2h");
        values.put("pipeline.rest-host", "127.0.0.2");
        values.put("pipeline.rest-port", "18081");
        values.put("pipeline.transactional-id-prefix", "pipeline-a");
        values.put("pipeline.planning-uri", "https://planning.example:8443/api");
        values.put("pipeline.max-out-of-orderness", "10s");
        values.put("pipeline.source-idleness", "30s");
        values.put("pipeline.allowed-lateness", "15m");
        values.put("pipeline.dedup-fixes-per-vehicle", "256");
        values.put("pipeline.dead-letter-max-bytes", "500000");
        values.put("pipeline.buffer-timeout", "50ms");
        values.put("pipeline.restart-initial-backoff", "2s");
        values.put("pipeline.restart-max-backoff", "5m");
        values.put("pipeline.restart-backoff-multiplier", "1.5");
        values.put("pipeline.restart-reset-backoff-after", "1h");
        values.put("pipeline.handover-dir", directory.resolve("handover").toString());
        values.put("pipeline.stop-timeout", "25s");
        values.put("pipeline.start-from-offsets-after-job", "5c1f0000000000000000000000000001");
        values.put("validation.max-speed-kmh", "160");
        values.put("enrichment.arrival-radius-m", "80");
        values.put("pipeline.kafka-username", "fleet-pipeline");
        values.put("pipeline.kafka-password", "kafka-secret");
        values.put("pipeline.flink-rest-key-store", "/tls/rest-keystore.p12");
        values.put("pipeline.flink-rest-trust-store", "/tls/rest-truststore.p12");
        values.put("pipeline.flink-rest-store-password", "store-secret");

        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.of(values));

        assertThat(config)
                .isEqualTo(new FleetPipelineConfig(
                        "10.0.0.1:19092,10.0.0.2:19092",
                        "group",
                        URI.create("https://catalog:8443/api"),
                        Optional.of(new CatalogCredential("fleet-writer", "writer-secret")),
                        "s3://lake/",
                        URI.create("https://s3:9443"),
                        Optional.of("access"),
                        Optional.of("secret"),
                        "eu-south-2",
                        URI.create("rediss://redis:6380"),
                        Duration.ofHours(36),
                        Duration.ofSeconds(30),
                        Optional.of(directory.resolve("checkpoints")),
                        4,
                        Duration.ofHours(2),
                        "127.0.0.2",
                        18081,
                        "pipeline-a",
                        URI.create("https://planning.example:8443/api"),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(15),
                        256,
                        500_000,
                        Duration.ofMillis(50),
                        new RestartConfig(Duration.ofSeconds(2), Duration.ofMinutes(5), 1.5, Duration.ofHours(1)),
                        new HandoverConfig(
                                Optional.of(directory.resolve("handover")),
                                Duration.ofSeconds(25),
                                Optional.of("5c1f0000000000000000000000000001")),
                        ValidationRules.from(ConfigSource.of(Map.of("validation.max-speed-kmh", "160"))),
                        EnrichmentConfig.from(ConfigSource.of(Map.of("enrichment.arrival-radius-m", "80"))),
                        Optional.of(new KafkaSaslCredentials("fleet-pipeline", "kafka-secret")),
                        Optional.of(new FlinkRestStores(
                                Path.of("/tls/rest-keystore.p12"),
                                Path.of("/tls/rest-truststore.p12"),
                                "store-secret"))));
        assertThat(config.restUri()).isEqualTo("https://127.0.0.2:18081");
        assertThat(config.toString()).doesNotContain("store-secret");
        assertThat(config.validationRules().maxSpeedKmh()).isEqualTo(160);
        assertThat(config.enrichment().arrivalRadiusM()).isEqualTo(80);
    }

    @Test
    void validationRulesComeFromTheRulesFileUnderDirectKeys() throws Exception {
        Path rules = Files.writeString(
                directory.resolve("rules.properties"), "validation.max-speed-kmh = 120\nvalidation.max-age = 2d\n");

        FleetPipelineConfig config =
                config(Map.of("validation.rules-file", rules.toString(), "validation.max-age", "3d"));

        assertThat(config.validationRules().maxSpeedKmh()).isEqualTo(120);
        assertThat(config.validationRules().maxAge()).isEqualTo(Duration.ofDays(3));
    }

    @Test
    void theRestEndpointsStoresComeAllThreeOrNone() {
        assertThatThrownBy(() -> config(Map.of("pipeline.flink-rest-key-store", "/tls/rest-keystore.p12")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.flink-rest-trust-store")
                .hasMessageContaining("pipeline.flink-rest-store-password");
    }

    @Test
    void invalidValidationRuleFailsWithItsKey() {
        assertThatThrownBy(() -> config(Map.of("validation.max-speed-kmh", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("validation.max-speed-kmh");
    }

    @Test
    void checkpointDirectoryIsOptionalBecauseAFlinkClusterHasItsOwnStorage() {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.empty());

        assertThat(config.checkpointDirectory()).isEmpty();
        assertThat(config.toString()).contains("checkpointDirectory=<none>");
    }

    @Test
    void theLocalRunnerRequiresTheCheckpointDirectory() {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.empty());

        assertThatThrownBy(config::requireCheckpointDirectory)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Missing required configuration pipeline.checkpoint-dir")
                .hasMessageContaining("FLEET_PIPELINE_CHECKPOINT_DIR")
                .hasMessageContaining("FleetPipelineClusterMain");
        assertThat(config(Map.of()).requireCheckpointDirectory()).isEqualTo(directory);
    }

    @Test
    void checkpointDirectoryMustNotBeAFile() throws Exception {
        Path file = Files.createFile(directory.resolve("file"));

        assertThatThrownBy(() -> config(Map.of("pipeline.checkpoint-dir", file.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("exists but is not a directory");
    }

    @Test
    void theHandoverSettingsAreValidated() throws Exception {
        Path file = Files.createFile(directory.resolve("handover-file"));

        assertThatThrownBy(() -> config(Map.of("pipeline.handover-dir", file.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.handover-dir")
                .hasMessageContaining("exists but is not a directory");
        assertThatThrownBy(() -> config(Map.of("pipeline.stop-timeout", "0s")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.stop-timeout = PT0S: expected a positive duration");
        assertThat(config(Map.of("pipeline.start-from-offsets-after-job", "  "))
                        .handover()
                        .startFromOffsetsAfterJob())
                .as("an empty value names no job")
                .isEmpty();
    }

    @Test
    void restPortMustBeFixed() {
        assertThatThrownBy(() -> config(Map.of("pipeline.rest-port", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.rest-port = 0: expected a fixed port");
    }

    @Test
    void invalidValuesNameTheKey() {
        assertThatThrownBy(() -> config(Map.of("pipeline.parallelism", "0")))
                .hasMessageContaining("pipeline.parallelism = 0");
        assertThatThrownBy(() -> config(Map.of("pipeline.checkpoint-interval", "0s")))
                .hasMessageContaining("pipeline.checkpoint-interval = PT0S: expected a positive duration");
        assertThatThrownBy(() -> config(Map.of("pipeline.dedup-ttl", "soon")))
                .hasMessageContaining("pipeline.dedup-ttl = 'soon'");
        assertThatThrownBy(() -> config(Map.of("pipeline.redis-uri", "http://redis:6379")))
                .hasMessageContaining("pipeline.redis-uri = 'http://redis:6379'")
                .hasMessageContaining("[redis, rediss]");
        assertThatThrownBy(() -> config(Map.of("pipeline.catalog-uri", "catalog:8181")))
                .hasMessageContaining("pipeline.catalog-uri");
        assertThatThrownBy(() -> config(Map.of("pipeline.consumer-group", " ")))
                .hasMessageContaining("pipeline.consumer-group must not be empty");
        assertThatThrownBy(() -> config(Map.of("pipeline.planning-uri", "ftp://planning:21")))
                .hasMessageContaining("pipeline.planning-uri = 'ftp://planning:21'")
                .hasMessageContaining("[http, https]");
        assertThatThrownBy(() -> config(Map.of("pipeline.source-idleness", "0s")))
                .hasMessageContaining("pipeline.source-idleness = PT0S: expected a positive duration");
        assertThatThrownBy(() -> config(Map.of("pipeline.allowed-lateness", "-PT1M")))
                .hasMessageContaining("pipeline.allowed-lateness = PT-1M: expected zero or a positive duration");
        assertThatThrownBy(() -> config(Map.of("enrichment.deviation-min-fixes", "0")))
                .hasMessageContaining("enrichment.deviation-min-fixes = 0");
        assertThatThrownBy(() -> config(Map.of("pipeline.dedup-fixes-per-vehicle", "0")))
                .hasMessageContaining("pipeline.dedup-fixes-per-vehicle = 0");
        assertThatThrownBy(() -> config(Map.of("pipeline.dead-letter-max-bytes", "1000")))
                .hasMessageContaining("pipeline.dead-letter-max-bytes = 1000");
        assertThatThrownBy(() -> config(Map.of("pipeline.buffer-timeout", "-PT1S")))
                .hasMessageContaining("pipeline.buffer-timeout = PT-1S");
        assertThatThrownBy(() -> config(Map.of("pipeline.restart-max-backoff", "100ms")))
                .hasMessageContaining("pipeline.restart-max-backoff = PT0.1S: it must not be shorter than"
                        + " pipeline.restart-initial-backoff");
        assertThatThrownBy(() -> config(Map.of("pipeline.restart-backoff-multiplier", "0.5")))
                .hasMessageContaining("pipeline.restart-backoff-multiplier = 0.5");
        assertThatThrownBy(() -> config(Map.of("validation.vehicle-id-pattern", "[unclosed")))
                .hasMessageContaining("validation.vehicle-id-pattern = [unclosed is not a regular expression");
    }

    @Test
    void s3KeysComeInPairs() {
        assertThatThrownBy(() -> config(Map.of("pipeline.s3-access-key", "access")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Set both pipeline.s3-access-key and pipeline.s3-secret-key");
    }

    @Test
    void redisAclUserPasswordAndDatabaseAreRedactedButTheDatabaseStays() {
        FleetPipelineConfig config =
                config(Map.of("pipeline.redis-uri", "rediss://acl-user:redis-password@redis:6380/2"));

        assertThat(config.redisUri()).hasToString("rediss://acl-user:redis-password@redis:6380/2");
        assertThat(config.toString())
                .doesNotContain("redis-password")
                .doesNotContain("acl-user")
                .contains("redisUri=rediss://<redacted>@redis:6380/2");
    }

    @Test
    void catalogCredentialIsTheClientIdAndSecretAndOnlyTheIdIsPrinted() {
        FleetPipelineConfig config = config(Map.of("pipeline.catalog-credential", "fleet-writer:catalog-secret"));

        assertThat(config.catalogCredential()).contains(new CatalogCredential("fleet-writer", "catalog-secret"));
        assertThat(config.toString()).doesNotContain("catalog-secret").contains("catalogCredential=fleet-writer");
        assertThatThrownBy(() -> config(Map.of("pipeline.catalog-credential", "no-colon")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.catalog-credential")
                .hasMessageNotContaining("no-colon");
    }

    @Test
    void secretsAreRedacted() {
        FleetPipelineConfig config = config(Map.of(
                "pipeline.s3-access-key", "access",
                "pipeline.s3-secret-key", "very-secret",
                "pipeline.redis-uri", "redis://default:redis-password@redis:6379",
                "pipeline.planning-uri", "http://planner:planning-password@planning:8090"));

        assertThat(config.toString())
                .doesNotContain("very-secret")
                .doesNotContain("redis-password")
                .doesNotContain("planning-password")
                .contains("planningUri=http://<redacted>@planning:8090")
                .contains("s3SecretKey=<redacted>")
                .contains("redisUri=redis://<redacted>@redis:6379")
                .contains("s3AccessKey=access")
                .contains("validationRules=ValidationRules[")
                .contains("enrichment=EnrichmentConfig[");
    }

    @Test
    void theKafkaLoginGoesToEveryKafkaClientAndIsNotPrinted() {
        FleetPipelineConfig config = config(
                Map.of("pipeline.kafka-username", "fleet-pipeline", "pipeline.kafka-password", "kafka-password-value"));

        assertThat(config.kafkaClientProperties())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "security.protocol",
                        "SASL_PLAINTEXT",
                        "sasl.mechanism",
                        "SCRAM-SHA-512",
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"fleet-pipeline\" password=\"kafka-password-value\";"));
        assertThat(config.toString()).contains("fleet-pipeline").doesNotContain("kafka-password-value");
        assertThatThrownBy(() -> config(Map.of("pipeline.kafka-password", "kafka-password-value")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.kafka-username");
    }

    private FleetPipelineConfig config(Map<String, String> values) {
        Map<String, String> withDirectory = new HashMap<>(values);
        withDirectory.putIfAbsent("pipeline.checkpoint-dir", directory.toString());
        return FleetPipelineConfig.from(ConfigSource.of(withDirectory));
    }
}
