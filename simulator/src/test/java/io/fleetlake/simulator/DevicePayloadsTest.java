package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
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
        byte[] payload = payloads.encode(POSITION, PayloadFormat.AVRO);

        assertThat(payload[0]).isEqualTo((byte) 0xC3);
        assertThat(payload[1]).isEqualTo((byte) 0x01);
        assertThat(codec.decode(payload)).isEqualTo(new Decoded(POSITION, PayloadFormat.AVRO, 1));
    }

    @Test
    void jsonDevicesSendJsonObjects() {
        byte[] payload = payloads.encode(POSITION, PayloadFormat.JSON);

        assertThat(payload[0]).isEqualTo((byte) '{');
        assertThat(codec.decode(payload)).isEqualTo(new Decoded(POSITION, PayloadFormat.JSON, 0));
    }
}
