package io.fleetlake.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeviceClockTest {
    @Test
    void usesTheWallClockButNeverRepeatsAVehiclesEventTime() {
        DeviceClock clock = new DeviceClock(2);

        assertThat(clock.next(0, 1_000)).isEqualTo(1_000);
        assertThat(clock.next(0, 1_000)).isEqualTo(1_001);
        assertThat(clock.next(0, 999)).isEqualTo(1_002);
        assertThat(clock.next(1, 1_000)).isEqualTo(1_000);
        assertThat(clock.next(0, 5_000)).isEqualTo(5_000);
    }
}
