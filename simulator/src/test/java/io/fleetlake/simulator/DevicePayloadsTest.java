package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DevicePayloadsTest {
    private static final Position POSITION = new Position(
            "VH-0007",
            Instant.parse("2026-03-01T10:15:30.250Z"),
            40.416775,
            -3.70379,
            87.3,
            64.2,
            655.4,
            4.1,
            11,
            null);

    private final DevicePayloads payloads = new DevicePayloads();
    private final PositionCodec codec = PositionCodec.bundled();

    @Test
    void avroDevicesSendSingleObjectMessagesOfTheFirstSchemaVersion() {
        byte[] payload = payloads.encode(POSITION, PayloadFormat.AVRO, 1);

        assertThat(payload[0]).isEqualTo((byte) 0xC3);
        assertThat(payload[1]).isEqualTo((byte) 0x01);
        assertThat(codec.decode(payload)).isEqualTo(new Decoded(POSITION, PayloadFormat.AVRO, 1));
    }

    @Test
    void firmware2DevicesSendSchemaVersion2WithTheBatteryLevel() {
        Position withBattery = withBattery(POSITION, 73.4);

        byte[] payload = payloads.encode(withBattery, PayloadFormat.AVRO, 2);

        assertThat(codec.decode(payload)).isEqualTo(new Decoded(withBattery, PayloadFormat.AVRO, 2));
        // Version 1 has no battery field: a firmware 1 device leaves it out.
        assertThat(codec.decode(payloads.encode(withBattery, PayloadFormat.AVRO, 1)))
                .isEqualTo(new Decoded(POSITION, PayloadFormat.AVRO, 1));
    }

    @Test
    void jsonDevicesSendTheBatteryLevelWhenThePositionHasOne() {
        Position withBattery = withBattery(POSITION, 73.4);

        assertThat(new String(payloads.encode(withBattery, PayloadFormat.JSON, 2), StandardCharsets.UTF_8))
                .contains("\"battery_level\":73.4");
        assertThat(new String(payloads.encode(POSITION, PayloadFormat.JSON, 1), StandardCharsets.UTF_8))
                .doesNotContain("battery_level");
    }

    @Test
    void jsonDevicesSendJsonObjects() {
        byte[] payload = payloads.encode(POSITION, PayloadFormat.JSON, 1);

        assertThat(payload[0]).isEqualTo((byte) '{');
        assertThat(codec.decode(payload)).isEqualTo(new Decoded(POSITION, PayloadFormat.JSON, 0));
    }

    private static Position withBattery(Position position, double batteryLevel) {
        return new Position(
                position.vehicleId(),
                position.eventTime(),
                position.latitude(),
                position.longitude(),
                position.speedKmh(),
                position.headingDeg(),
                position.altitudeM(),
                position.accuracyM(),
                position.satellites(),
                batteryLevel);
    }
}
