package io.fleetlake.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourceTest {
    @TempDir
    Path directory;

    @Test
    void aSecretIsReadByItsParserAndNeverEchoedInTheError() {
        ConfigSource source =
                ConfigSource.of(Map.of("a.credential", "reader:s3cr3t", "b.credential", "no-colon-s3cr3t"));

        assertThat(source.secret("a.credential", value -> value.split(":")[1])).contains("s3cr3t");
        assertThat(source.secret("c.credential", value -> value)).isEmpty();
        assertThatThrownBy(() -> source.secret("b.credential", value -> {
                    throw new IllegalArgumentException("b.credential must be <client id>:<secret>");
                }))
                .isInstanceOf(ConfigException.class)
                .hasMessage("b.credential must be <client id>:<secret>")
                .message()
                .doesNotContain("s3cr3t");
    }

    @Test
    void laterLayersWin() throws IOException {
        Path file = directory.resolve("fleet.properties");
        Files.writeString(file, "catalog.http-port=1000\ncatalog.warehouse=s3://from-file\nkafka.port=9092\n");

        ConfigSource source = ConfigSource.load(Optional.of(file), Map.of("FLEET_CATALOG_HTTP_PORT", "2000"))
                .withOverrides(Map.of("catalog.warehouse", "s3://from-command-line"), "test");

        assertThat(source.port("catalog.http-port", 1)).isEqualTo(2000);
        assertThat(source.requiredString("catalog.warehouse")).isEqualTo("s3://from-command-line");
        assertThat(source.port("kafka.port", 1)).isEqualTo(9092);
        assertThat(source.port("redis.port", 6379)).isEqualTo(6379);
    }

    @Test
    void overrideOutranksEnvironmentForTheSameKey() {
        ConfigSource source = ConfigSource.load(Optional.empty(), Map.of("FLEET_REDIS_PORT", "7000"))
                .withOverrides(Map.of("redis.port", "7001"), "test");

        assertThat(source.port("redis.port", 6379)).isEqualTo(7001);
    }

    @Test
    void environmentVariableNameIsDerivedFromKey() {
        assertThat(ConfigSource.environmentName("catalog.http-port")).isEqualTo("FLEET_CATALOG_HTTP_PORT");
    }

    @Test
    void invalidValueNamesKeyValueAndOrigin() {
        ConfigSource source = ConfigSource.load(Optional.empty(), Map.of("FLEET_KAFKA_PORT", "ninety"));

        assertThatThrownBy(() -> source.port("kafka.port", 9092))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid configuration kafka.port = 'ninety' from environment variable FLEET_KAFKA_PORT:"
                        + " expected an integer");
    }

    @Test
    void portOutOfRangeIsRejected() {
        ConfigSource source = ConfigSource.of(Map.of("kafka.port", "70000"));

        assertThatThrownBy(() -> source.port("kafka.port", 9092))
                .hasMessageContaining("kafka.port = '70000'")
                .hasMessageContaining("a port number between 0 and 65535");
    }

    @Test
    void missingRequiredValueSaysWhereToSetIt() {
        assertThatThrownBy(() -> ConfigSource.empty().requiredString("catalog.s3-endpoint"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.s3-endpoint")
                .hasMessageContaining("FLEET_CATALOG_S3_ENDPOINT");
    }

    @Test
    void missingFileIsReported() {
        assertThatThrownBy(() -> ConfigSource.load(Optional.of(directory.resolve("absent.properties")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.properties does not exist");
    }

    @Test
    void parsesDurations() {
        assertThat(ConfigSource.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(ConfigSource.parseDuration("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(ConfigSource.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(ConfigSource.parseDuration("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(ConfigSource.parseDuration("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(ConfigSource.parseDuration("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> ConfigSource.of(Map.of("job.checkpoint-interval", "soon"))
                        .duration("job.checkpoint-interval", Duration.ZERO))
                .hasMessageContaining("expected a duration");
    }

    @Test
    void trackingSourceRecordsEveryKeyLookedUpWhetherOrNotItIsSet() {
        ConfigSource source = ConfigSource.of(Map.of("kafka.port", "9092")).tracking();

        source.port("kafka.port", 1);
        source.string("kafka.host", "127.0.0.1");
        source.duration("kafka.start-timeout", Duration.ofSeconds(1));

        assertThat(source.lookedUpKeys()).containsExactly("kafka.host", "kafka.port", "kafka.start-timeout");
    }

    @Test
    void unreadNamesTheFleetVariablesNoLookupMatched() {
        Map<String, String> environment = Map.of(
                "FLEET_CATALOG_PORT", "8181",
                "FLEET_CATALOG_WAREHOUSE", "s3://warehouse/",
                "FLEET_CATALOG_WAREHOUS", "s3://typo/",
                "FLEET_PIPELINE_REST_PORT", "8081",
                "PATH", "/usr/bin",
                "FLEET_", "no key at all");
        ConfigSource source = ConfigSource.empty().withEnvironment(environment).tracking();

        source.port("catalog.port", 1);
        source.string("catalog.warehouse");

        assertThat(source.unread(environment)).containsExactly("FLEET_CATALOG_WAREHOUS", "FLEET_PIPELINE_REST_PORT");
    }

    @Test
    void derivedSourcesShareTheRecordOfTheirTrackingSource() {
        Map<String, String> environment = Map.of("FLEET_REDIS_PORT", "7000", "FLEET_REDIS_HOST", "redis");
        ConfigSource tracking = ConfigSource.empty().tracking();
        ConfigSource derived =
                tracking.withEnvironment(environment).withOverrides(Map.of("redis.port", "7001"), "test");

        assertThat(derived.port("redis.port", 6379)).isEqualTo(7001);

        assertThat(tracking.unread(environment)).containsExactly("FLEET_REDIS_HOST");
        assertThat(derived.lookedUpKeys()).containsExactly("redis.port");
    }

    @Test
    void eachTrackingCallStartsAnEmptyRecord() {
        ConfigSource first = ConfigSource.empty().tracking();
        first.string("simulator.seed");

        ConfigSource second = first.tracking();

        assertThat(second.lookedUpKeys()).isEmpty();
        assertThat(first.lookedUpKeys()).containsExactly("simulator.seed");
    }

    @Test
    void lookupsAreNotRecordedUnlessAsked() {
        ConfigSource source = ConfigSource.of(Map.of("kafka.port", "9092"));
        source.port("kafka.port", 1);

        assertThatThrownBy(() -> source.unread(Map.of("FLEET_KAFKA_PORT", "9092")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tracking()");
        assertThatThrownBy(source::lookedUpKeys).isInstanceOf(IllegalStateException.class);
    }
}
