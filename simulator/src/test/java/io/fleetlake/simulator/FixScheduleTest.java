package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FixScheduleTest {
    @Test
    void vehiclesTakeTurnsEvenlySpreadOverTheInterval() {
        FixSchedule schedule = new FixSchedule(4, Duration.ofSeconds(2));

        assertThat(schedule.vehicleIndex(0)).isZero();
        assertThat(schedule.vehicleIndex(3)).isEqualTo(3);
        assertThat(schedule.vehicleIndex(4)).isZero();
        assertThat(schedule.dueNanos(0)).isZero();
        assertThat(schedule.dueNanos(1)).isEqualTo(500_000_000L);
        assertThat(schedule.dueNanos(3)).isEqualTo(1_500_000_000L);
        assertThat(schedule.dueNanos(4)).isEqualTo(2_000_000_000L);
        assertThat(schedule.dueNanos(9)).isEqualTo(4_500_000_000L);
    }

    @Test
    void eachVehicleReportsOncePerIntervalAtTheNaturalRate() {
        int vehicles = 340;
        long intervalNanos = Duration.ofSeconds(5).toNanos();
        FixSchedule schedule = new FixSchedule(vehicles, Duration.ofSeconds(5));

        Set<Integer> inFirstInterval = new HashSet<>();
        for (long sequence = 0; schedule.dueNanos(sequence) < intervalNanos; sequence++) {
            assertThat(inFirstInterval.add(schedule.vehicleIndex(sequence))).isTrue();
        }
        assertThat(inFirstInterval).hasSize(vehicles);
        for (int vehicle = 0; vehicle < vehicles; vehicle++) {
            assertThat(schedule.dueNanos(vehicle + vehicles) - schedule.dueNanos(vehicle))
                    .isEqualTo(intervalNanos);
        }
        // 68 messages per second: consecutive fixes are 1/68 s apart, give or take rounding to a nanosecond.
        for (long sequence = 1; sequence < 10 * vehicles; sequence++) {
            assertThat(schedule.dueNanos(sequence) - schedule.dueNanos(sequence - 1))
                    .isBetween(intervalNanos / vehicles - 1, intervalNanos / vehicles + 1);
        }
    }

    @Test
    void largeSequenceNumbersDoNotOverflow() {
        FixSchedule schedule = new FixSchedule(100_000, Duration.ofHours(1));
        long sequence = 10_000_000_000L;

        assertThat(schedule.dueNanos(sequence))
                .isEqualTo(Duration.ofHours(100_000).toNanos());
    }

    @Test
    void rejectsEmptyFleetsAndZeroIntervals() {
        assertThatThrownBy(() -> new FixSchedule(0, Duration.ofSeconds(1))).hasMessageContaining("at least one");
        assertThatThrownBy(() -> new FixSchedule(1, Duration.ZERO)).hasMessageContaining("positive");
    }
}
