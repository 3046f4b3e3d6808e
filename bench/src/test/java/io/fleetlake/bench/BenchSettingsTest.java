package io.fleetlake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {
    private static final Path DATA = Path.of("/tmp/bench-data");
    private static final Path MARKDOWN = Path.of("/tmp/BENCHMARKS.md");

    @Test
    void pinsEveryDefaultOfAFullRun() {
        assertThat(BenchSettings.defaults(DATA, MARKDOWN))
                .isEqualTo(new BenchSettings(
                        false,
                        300_000,
                        Duration.ofSeconds(1),
                        2_000,
                        1_500_000,
                        4,
                        2_000,
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(5),
                        17_280,
                        Duration.ofSeconds(5),
                        true,
                        1,
                        300_000,
                        false,
                        Duration.ofSeconds(10),
                        Duration.ofMinutes(10),
                        Duration.ofSeconds(60),
                        DATA,
                        DATA.resolve("bench-results.json"),
                        Optional.of(MARKDOWN)));
    }

    @Test
    void pinsEveryDefaultOfAQuickRun() {
        assertThat(BenchSettings.quickDefaults(DATA, MARKDOWN))
                .isEqualTo(new BenchSettings(
                        true,
                        50_000,
                        Duration.ofSeconds(1),
                        2_000,
                        20_000,
                        4,
                        2_000,
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(5),
                        17_280,
                        Duration.ofSeconds(5),
                        true,
                        1,
                        50_000,
                        false,
                        Duration.ofSeconds(5),
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(20),
                        DATA,
                        DATA.resolve("bench-results.json"),
                        Optional.of(MARKDOWN)));
    }

    @Test
    void describesTheParametersForTheResults() {
        assertThat(BenchSettings.defaults(DATA, MARKDOWN).describe())
                .containsEntry("mode", "full")
                .containsEntry("records", "300,000")
                .containsEntry("rate", "2,000 msg/s")
                .containsEntry("duration", "60 s (first 5 s warm-up)")
                .containsEntry("history-fixes", "17,280 every 5 s")
                .containsEntry("peer", "1 pair(s) of 300,000 records")
                .containsEntry("checkpoint-interval", "10 s")
                .containsEntry("idle", "60 s");
    }

    @Test
    void theDefaultPhaseTimeoutGrowsWithALongBacklog() {
        assertThat(BenchSettings.phaseTimeoutFor(Duration.ofMinutes(10), 300_000))
                .isEqualTo(Duration.ofMinutes(10));
        // 3,000,000 records at the slowest expected 2,000 msg/s: 25 minutes.
        assertThat(BenchSettings.phaseTimeoutFor(Duration.ofMinutes(10), 3_000_000))
                .isEqualTo(Duration.ofMinutes(25));
    }

    @Test
    void rejectsValuesThatCannotMeasureAnythingWithMessagesNamingTheFlag() {
        BenchSettings base = BenchSettings.defaults(DATA, MARKDOWN);

        assertThatThrownBy(() -> withRecordsAndDuration(base, 0, base.duration()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--records must be at least 1, got 0");
        assertThatThrownBy(() -> withRecordsAndDuration(base, 10, Duration.ofSeconds(9)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--duration must be at least the 5 s warm-up + 5 s, got PT9S");
    }

    private static BenchSettings withRecordsAndDuration(BenchSettings base, long records, Duration duration) {
        return new BenchSettings(
                base.quick(),
                records,
                base.fixInterval(),
                base.vehicles(),
                base.mqttRecords(),
                base.mqttPublishers(),
                base.rate(),
                duration,
                base.warmUp(),
                base.historyFixes(),
                base.historyInterval(),
                base.peer(),
                base.peerPairs(),
                base.peerRecords(),
                base.profile(),
                base.checkpointInterval(),
                base.phaseTimeout(),
                base.idle(),
                base.dataDirectory(),
                base.jsonOut(),
                base.benchmarksMarkdown());
    }
}
