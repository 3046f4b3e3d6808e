package io.fleetlake.flink.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.fleetlake.flink.windows.MinuteAggregate.Fix;
import io.fleetlake.model.geo.GreatCircle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinuteAggregateTest {
    private static final long MINUTE = 1_795_000_020_000L;
    private static final double STOP_SPEED = 3;

    @Test
    void oneFixHasNoDistanceAndNoStoppedTime() {
        MinuteAggregate aggregate = MinuteAggregate.of(List.of(new Fix(MINUTE + 5_000, 40.4, -3.7, 1.0)), STOP_SPEED);

        assertThat(aggregate).isEqualTo(new MinuteAggregate(1, 0, 1.0, 1.0, 0));
    }

    @Test
    void handMadeMinute() {
        // 0.001° of latitude is 111.195 m on the IUGG sphere.
        List<Fix> fixes = List.of(
                new Fix(MINUTE, 40.400, -3.7, 0.0),
                new Fix(MINUTE + 10_000, 40.400, -3.7, 2.0),
                new Fix(MINUTE + 25_500, 40.401, -3.7, 40.0),
                new Fix(MINUTE + 40_000, 40.402, -3.7, 2.9),
                new Fix(MINUTE + 59_999, 40.402, -3.7, 1.0));

        MinuteAggregate aggregate = MinuteAggregate.of(fixes, STOP_SPEED);

        assertThat(aggregate.positions()).isEqualTo(5);
        assertThat(aggregate.distanceM()).isCloseTo(2 * 111.195, offset(0.001));
        assertThat(aggregate.avgSpeedKmh()).isEqualTo((0.0 + 2.0 + 40.0 + 2.9 + 1.0) / 5);
        assertThat(aggregate.maxSpeedKmh()).isEqualTo(40.0);
        assertThat(aggregate.secondsStopped())
                .as("0 s to 10 s both slow; 10 s to 25.5 s and 25.5 s to 40 s not; 40 s to 59.999 s both slow")
                .isEqualTo(10.0 + 19.999);
    }

    @Test
    void orderOfArrivalDoesNotMatter() {
        List<Fix> fixes = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            fixes.add(new Fix(MINUTE + i * 2_000L, 40.4 + (i % 7) * 0.0003, -3.7 + (i % 5) * 0.0002, (i * 7) % 11));
        }
        MinuteAggregate inOrder = MinuteAggregate.of(fixes, STOP_SPEED);
        List<Fix> shuffled = new ArrayList<>(fixes);
        Collections.reverse(shuffled);
        Collections.swap(shuffled, 3, 17);

        assertThat(MinuteAggregate.of(shuffled, STOP_SPEED)).isEqualTo(inOrder);
    }

    @Test
    void distanceIsTheGreatCircleDistanceBetweenConsecutiveFixes() {
        MinuteAggregate aggregate = MinuteAggregate.of(
                List.of(new Fix(0, 40.4168, -3.7038, 50), new Fix(1_000, 41.3874, 2.1686, 50)), STOP_SPEED);
        assertThat(aggregate.distanceM()).isEqualTo(GreatCircle.distanceMetres(40.4168, -3.7038, 41.3874, 2.1686));
    }

    @Test
    void tiesOnEventTimeAreOrderedByPosition() {
        Fix west = new Fix(MINUTE, 40.4, -3.8, 10);
        Fix east = new Fix(MINUTE, 40.4, -3.6, 10);
        Fix later = new Fix(MINUTE + 1_000, 40.4, -3.7, 10);

        assertThat(MinuteAggregate.of(List.of(later, east, west), STOP_SPEED))
                .isEqualTo(MinuteAggregate.of(List.of(west, east, later), STOP_SPEED));
        assertThat(List.of(later, east, west).stream()
                        .sorted(MinuteAggregate.FIX_ORDER)
                        .toList())
                .containsExactly(west, east, later);
    }

    @Test
    void aMinuteWithoutFixesHasNoRow() {
        assertThatThrownBy(() -> MinuteAggregate.of(List.of(), STOP_SPEED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one position");
    }
}
