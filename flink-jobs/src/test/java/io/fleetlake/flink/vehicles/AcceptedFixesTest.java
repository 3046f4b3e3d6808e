package io.fleetlake.flink.vehicles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AcceptedFixesTest {
    private static final Instant T0 = Instant.parse("2026-11-29T18:00:00Z");

    @Test
    void keepsTheLastAcceptedFixesInArrivalOrder() {
        AcceptedFixes fixes = new AcceptedFixes(3);
        for (int i = 0; i < 5; i++) {
            fixes.add(T0.plusSeconds(i), 100 + i, i % 2, 1000 + i);
        }

        assertThat(fixes.size()).isEqualTo(3);
        assertThat(fixes.find(T0)).as("forgotten").isNegative();
        assertThat(fixes.find(T0.plusSeconds(1))).isNegative();
        int newest = fixes.find(T0.plusSeconds(4));
        assertThat(fixes.fingerprint(newest)).isEqualTo(104);
        assertThat(fixes.partition(newest)).isEqualTo(0);
        assertThat(fixes.offset(newest)).isEqualTo(1004);
        assertThat(fixes.eventTime(fixes.entry(0))).isEqualTo(T0.plusSeconds(4));
        assertThat(fixes.eventTime(fixes.entry(2))).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void olderEventTimesAreKeptByArrivalNotByEventTime() {
        AcceptedFixes fixes = new AcceptedFixes(2);
        fixes.add(T0.plusSeconds(60), 1, 0, 1);
        fixes.add(T0, 2, 0, 2);
        fixes.add(T0.plusSeconds(1), 3, 0, 3);

        assertThat(fixes.find(T0.plusSeconds(60))).isNegative();
        assertThat(fixes.find(T0)).isNotNegative();
    }

    @Test
    void anotherCapacityKeepsTheNewestAndACopyIsIndependent() {
        AcceptedFixes fixes = new AcceptedFixes(4);
        for (int i = 0; i < 4; i++) {
            fixes.add(T0.plusSeconds(i), i, 0, i);
        }

        AcceptedFixes smaller = fixes.withCapacity(2);
        AcceptedFixes copy = fixes.copy();
        copy.add(T0.plusSeconds(9), 9, 0, 9);

        assertThat(smaller.capacity()).isEqualTo(2);
        assertThat(smaller.find(T0.plusSeconds(3))).isNotNegative();
        assertThat(smaller.find(T0.plusSeconds(2))).isNotNegative();
        assertThat(smaller.find(T0.plusSeconds(1))).isNegative();
        assertThat(fixes.find(T0.plusSeconds(9))).isNegative();
        assertThat(fixes.find(T0)).isNotNegative();
        assertThat(copy.find(T0)).isNegative();
        assertThat(fixes.withCapacity(8).size()).isEqualTo(4);
    }
}
