package io.fleetlake.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The pacer only computes due times on the caller's clock, so these tests drive that clock by hand. */
class RatePacerTest {
    private static final long START = 1_000_000_000L;

    @Test
    void spacesSendsEvenlyAtTheOfferedRate() {
        RatePacer pacer = RatePacer.perSecond(2_000);

        assertThat(pacer.spacingNanos()).isEqualTo(500_000);
        assertThat(pacer.nextDue(START)).isEqualTo(START);
        assertThat(pacer.nextDue(START)).isEqualTo(START + 500_000);
        assertThat(pacer.nextDue(START + 100)).isEqualTo(START + 1_000_000);
    }

    @Test
    void offersExactlyTheRateOverOneSecondWhenTheSenderIsPunctual() {
        RatePacer pacer = RatePacer.perSecond(200);
        long now = START;
        int sends = 0;
        while (true) {
            long due = pacer.nextDue(now);
            if (due >= START + 1_000_000_000L) {
                break;
            }
            now = due; // the sender wakes exactly on time
            sends++;
        }

        assertThat(sends).isEqualTo(200);
    }

    @Test
    void keepsTheScheduleWhenTheSenderWakesALittleLate() {
        RatePacer pacer = RatePacer.perSecond(1_000);
        pacer.nextDue(START);

        // Woken 3 ms late: the sends due at +1 ms, +2 ms and +3 ms are all due at once, catching up.
        long late = START + 3_000_000;
        assertThat(pacer.nextDue(late)).isEqualTo(START + 1_000_000);
        assertThat(pacer.nextDue(late)).isEqualTo(START + 2_000_000);
        assertThat(pacer.nextDue(late)).isEqualTo(START + 3_000_000);
        assertThat(pacer.nextDue(late)).isEqualTo(START + 4_000_000);
    }

    @Test
    void catchesUpAtMostOneHundredMillisecondsAfterAStall() {
        RatePacer pacer = RatePacer.perSecond(1_000);
        pacer.nextDue(START);

        long afterStall = START + 2_000_000_000L;
        long due = pacer.nextDue(afterStall);

        assertThat(due).isEqualTo(afterStall - RatePacer.MAXIMUM_CATCH_UP_NANOS);
        int burst = 1;
        while (pacer.nextDue(afterStall) <= afterStall) {
            burst++;
        }
        assertThat(burst).isEqualTo(101);
    }

    @Test
    void rejectsRatesThatAreNotPositiveAndFinite() {
        assertThatThrownBy(() -> RatePacer.perSecond(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatePacer.perSecond(-5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatePacer.perSecond(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatePacer.perSecond(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
