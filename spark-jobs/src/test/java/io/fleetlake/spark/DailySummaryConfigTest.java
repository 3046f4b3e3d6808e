package io.fleetlake.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DailySummaryConfigTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T00:30:00Z"), ZoneOffset.UTC);

    @Test
    void defaults() {
        DailySummaryConfig config = DailySummaryConfig.from(ConfigSource.empty(), CLOCK);

        assertThat(config)
                .isEqualTo(new DailySummaryConfig(
                        URI.create("http://127.0.0.1:8181"),
                        "s3://warehouse/",
                        URI.create("http://127.0.0.1:9000"),
                        Optional.empty(),
                        Optional.empty(),
                        "us-east-1",
                        LocalDate.parse("2026-11-28"),
                        "local[2]"));
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> values = new HashMap<>();
        values.put("spark.catalog-uri", "https://catalog:8443/api");
        values.put("spark.warehouse", "s3://lake/");
        values.put("spark.s3-endpoint", "https://s3:9443");
        values.put("spark.s3-access-key", "access");
        values.put("spark.s3-secret-key", "secret");
        values.put("spark.s3-region", "eu-south-2");
        values.put("spark.date", "2026-02-28");
        values.put("spark.master", "local[*]");

        DailySummaryConfig config = DailySummaryConfig.from(ConfigSource.of(values), CLOCK);

        assertThat(config)
                .isEqualTo(new DailySummaryConfig(
                        URI.create("https://catalog:8443/api"),
                        "s3://lake/",
                        URI.create("https://s3:9443"),
                        Optional.of("access"),
                        Optional.of("secret"),
                        "eu-south-2",
                        LocalDate.parse("2026-02-28"),
                        "local[*]"));
    }

    @Test
    void yesterdayIsTheDayBeforeTodayInUtcWhateverTheClocksZone() {
        Clock lateInMadrid = Clock.fixed(Instant.parse("2026-11-28T23:30:00Z"), ZoneId.of("Europe/Madrid"));

        assertThat(DailySummaryConfig.yesterday(lateInMadrid)).isEqualTo(LocalDate.parse("2026-11-27"));
    }

    @Test
    void secretIsRedacted() {
        DailySummaryConfig config = config(Map.of("spark.s3-access-key", "access", "spark.s3-secret-key", "s3cr3t"));

        assertThat(config.toString()).contains("access").contains("<redacted>").doesNotContain("s3cr3t");
    }

    @Test
    void rejectsOneCredentialWithoutTheOther() {
        assertThatThrownBy(() -> config(Map.of("spark.s3-access-key", "access")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spark.s3-secret-key");
    }

    @Test
    void rejectsAnInvalidDate() {
        assertThatThrownBy(() -> config(Map.of("spark.date", "28/11/2026")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spark.date")
                .hasMessageContaining("2026-11-28");
    }

    @Test
    void rejectsAMasterThatIsNotLocal() {
        assertThatThrownBy(() -> config(Map.of("spark.master", "spark://cluster:7077")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spark.master")
                .hasMessageContaining("local");
    }

    @Test
    void acceptsEveryLocalMaster() {
        for (String master : new String[] {"local", "local[1]", "local[*]", "local[2,3]"}) {
            assertThat(config(Map.of("spark.master", master)).master()).isEqualTo(master);
        }
    }

    @Test
    void rejectsACatalogUriThatIsNotHttp() {
        assertThatThrownBy(() -> config(Map.of("spark.catalog-uri", "thrift://metastore:9083")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spark.catalog-uri");
    }

    @Test
    void rejectsABlankWarehouse() {
        assertThatThrownBy(() -> config(Map.of("spark.warehouse", " ")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spark.warehouse");
    }

    private static DailySummaryConfig config(Map<String, String> values) {
        return DailySummaryConfig.from(ConfigSource.of(values), CLOCK);
    }
}
