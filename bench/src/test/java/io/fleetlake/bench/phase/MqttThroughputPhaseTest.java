package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.bench.BenchSettings;
import io.fleetlake.bench.load.MqttPublishers.Mix;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MqttThroughputPhaseTest {
    private static final Path DATA = Path.of("target/bench-test");

    @Test
    void fiveMinutesAtFiveThousandAreOneAndAHalfMillionRecords() {
        BenchSettings settings = withMqttRecords(BenchSettings.defaults(DATA, DATA.resolve("B.md")), 1_500_000);

        Mix mix = MqttThroughputPhase.mix(settings);

        assertThat(mix.rate()).isEqualTo(5_000);
        assertThat(mix.duration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(mix.devices()).isEqualTo(1_000);
        assertThat(mix.deviceInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(mix.gateways()).isEqualTo(settings.mqttPublishers());
        assertThat(mix.gatewayRate()).isEqualTo(4_500);
    }

    @Test
    void tinyRunsConnectFewDevicesAndLastAtLeastASecond() {
        BenchSettings settings = withMqttRecords(BenchSettings.quickDefaults(DATA, DATA.resolve("B.md")), 2_000);

        Mix mix = MqttThroughputPhase.mix(settings);

        assertThat(mix.devices()).isEqualTo(100);
        assertThat(mix.duration()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void devicesAreAtMostHalfTheFleet() {
        BenchSettings base = BenchSettings.defaults(DATA, DATA.resolve("B.md"));
        BenchSettings small = new BenchSettings(
                base.quick(),
                base.records(),
                base.fixInterval(),
                300,
                1_500_000,
                base.mqttPublishers(),
                base.rate(),
                base.duration(),
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

        assertThat(MqttThroughputPhase.mix(small).devices()).isEqualTo(150);
    }

    private static BenchSettings withMqttRecords(BenchSettings base, long mqttRecords) {
        return new BenchSettings(
                base.quick(),
                base.records(),
                base.fixInterval(),
                base.vehicles(),
                mqttRecords,
                base.mqttPublishers(),
                base.rate(),
                base.duration(),
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
