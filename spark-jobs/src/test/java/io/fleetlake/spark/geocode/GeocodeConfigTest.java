package io.fleetlake.spark.geocode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.spark.SparkCatalogConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class GeocodeConfigTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T06:00:00Z"), ZoneOffset.UTC);

    @Test
    void defaults() {
        GeocodeConfig config = GeocodeConfig.from(ConfigSource.empty(), CLOCK);

        assertThat(config.maxDistanceKm()).isEqualTo(30.0);
        assertThat(config.full()).isFalse();
        assertThat(config.since()).isEmpty();
        assertThat(config.catalog()).isEqualTo(SparkCatalogConfig.from(ConfigSource.empty()));
        assertThat(config.catalog().master()).isEqualTo("local[2]");
    }

    @Test
    void everyKey() {
        GeocodeConfig config = GeocodeConfig.from(
                ConfigSource.of(Map.of(
                        GeocodeConfig.MAX_DISTANCE_KM, "12.5",
                        GeocodeConfig.FULL, "true",
                        GeocodeConfig.SINCE, "2026-11-28T00:00:00Z",
                        SparkCatalogConfig.CATALOG_URI, "http://127.0.0.1:18181",
                        SparkCatalogConfig.S3_ACCESS_KEY, "fleet",
                        SparkCatalogConfig.S3_SECRET_KEY, "s3cr3t")),
                CLOCK);

        assertThat(config.maxDistanceKm()).isEqualTo(12.5);
        assertThat(config.full()).isTrue();
        assertThat(config.since()).contains(Instant.parse("2026-11-28T00:00:00Z"));
        assertThat(config.catalog().catalogUri()).hasToString("http://127.0.0.1:18181");
        assertThat(config.toString()).contains("<redacted>").doesNotContain("s3cr3t");
    }

    @Test
    void sinceIsAnInstantOrADurationBackFromNow() {
        assertThat(GeocodeConfig.parseSince("6h", CLOCK))
                .isEqualTo(CLOCK.instant().minus(Duration.ofHours(6)));
        assertThat(GeocodeConfig.parseSince("2d", CLOCK)).isEqualTo(Instant.parse("2026-11-27T06:00:00Z"));
        assertThatThrownBy(() -> GeocodeConfig.parseSince("yesterday", CLOCK))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("geocode.since = 'yesterday'");
    }

    @Test
    void refusesADistanceThatIsNotPositive() {
        assertThatThrownBy(() -> GeocodeConfig.from(ConfigSource.of(Map.of(GeocodeConfig.MAX_DISTANCE_KM, "0")), CLOCK))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("geocode.max-distance-km");
    }

    @Test
    void theSummaryGivesRowsSnapshotsElapsedAndRate() {
        GeocodePlan plan = new GeocodePlan(
                GeocodePlan.Mode.INCREMENTAL, OptionalLong.of(1), OptionalLong.of(9), 12, 9, "rows appended after 1");
        GeocodeResult result =
                new GeocodeResult(plan, 4_080, 4_012, 4_080, OptionalLong.of(77), Duration.ofMillis(12_000));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        GeocodeMain.printSummary(
                result,
                GeocodeConfig.from(ConfigSource.empty(), CLOCK),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("Mode                      INCREMENTAL (rows appended after 1)")
                .contains("New snapshots processed   12 (9 appends)")
                .contains("Positions geocoded        4,080 (4,012 named, 68 with no place within 30 km)")
                .contains("Rows written              4,080")
                .contains("Elapsed                   12.0 s")
                .contains("Rows per second           340")
                .contains("Processed up to           snapshot 9 of fleet.positions");
        assertThat(result.rowsPerSecond()).isEqualTo(340.0);
        assertThat(Optional.of(result.plan().mode())).contains(GeocodePlan.Mode.INCREMENTAL);
    }
}
