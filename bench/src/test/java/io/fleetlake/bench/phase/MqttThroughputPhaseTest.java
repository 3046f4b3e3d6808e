package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.bench.BenchSettings;
import io.fleetlake.bench.load.MqttPublishers.Ledger;
import io.fleetlake.bench.load.MqttPublishers.Mix;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MqttThroughputPhaseTest {
    private static final Path DATA = Path.of("target/bench-test");
    private static final PositionCodec CODEC = PositionCodec.bundled();
    private static final Position POSITION = new Position(
            "VH-0042", Instant.parse("2026-11-30T10:00:00Z"), 40.4168, -3.7038, 42.0, 90.0, null, null, null, null);
    private static final Map<String, Integer> FLEET = Map.of("VH-0042", 7);

    /** The reported poison pill in the raw topic: 15 bytes whose vehicle_id declares 2,000,000,000 bytes. */
    @Test
    void aPayloadDeclaringALengthItCannotHoldIsNoLedgerKey() {
        byte[] poison = Arrays.copyOf(CODEC.encodeAvro(POSITION), 15);
        System.arraycopy(new byte[] {(byte) 0x80, (byte) 0xD0, (byte) 0xAC, (byte) 0xF3, 0x0E}, 0, poison, 10, 5);

        assertThat(MqttThroughputPhase.key(CODEC::decode, FLEET, poison)).isEqualTo(-1);
        assertThat(MqttThroughputPhase.key(CODEC::decode, FLEET, CODEC.encodeAvro(POSITION)))
                .isEqualTo(Ledger.key(7, POSITION.eventTime().toEpochMilli()));
    }

    /** A real OutOfMemoryError or StackOverflowError decoding one payload: that record is no key, the next one is. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"out of memory", "stack overflow"})
    void aFailureDecodingOnePayloadIsNoLedgerKeyAndTheNextOneIs(String kind) {
        Function<byte[], DecodeResult> failing = payload -> {
            if (payload[0] == 'X') {
                // More than the test JVM's heap, refused at once; or recursion without end.
                payload[0] = kind.equals("out of memory") ? (new byte[Integer.MAX_VALUE - 8])[0] : (byte) recurse(0);
            }
            return CODEC.decode(payload);
        };

        assertThat(MqttThroughputPhase.key(failing, FLEET, new byte[] {'X'})).isEqualTo(-1);
        assertThat(MqttThroughputPhase.key(failing, FLEET, CODEC.encodeJson(POSITION)))
                .isEqualTo(Ledger.key(7, POSITION.eventTime().toEpochMilli()));
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

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
