package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.VehicleStatus;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VehicleStateSerializerTest {
    private final VehicleStateSerializer serializer = new VehicleStateSerializer();

    @Test
    void everyValueRoundTrips() throws IOException {
        VehicleState state = new VehicleState(
                "VH-0001",
                Instant.ofEpochSecond(1_795_000_000L, 123_456_789),
                40.5,
                -3.25,
                57.5,
                271.0,
                81.5,
                VehicleStatus.DEVIATING,
                "R-1",
                "S-2",
                1234.5,
                12.25,
                true);

        assertThat(roundTrip(state)).isEqualTo(state);
    }

    @Test
    void absentValuesStayAbsent() throws IOException {
        VehicleState state = new VehicleState(
                "VH-0002",
                Instant.ofEpochMilli(1_795_000_000_123L),
                40.5,
                -3.25,
                0.0,
                0.0,
                null,
                VehicleStatus.NO_ROUTE,
                null,
                null,
                null,
                null,
                false);

        assertThat(roundTrip(state)).isEqualTo(state);
    }

    @Test
    void unknownVersionIsRefusedWithWhatToDo() {
        assertThatThrownBy(() -> serializer.deserialize(VehicleStateSerializer.VERSION + 1, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("state version 2")
                .hasMessageContaining("restore the checkpoint with the release that wrote it");
    }

    private VehicleState roundTrip(VehicleState state) throws IOException {
        return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
    }
}
