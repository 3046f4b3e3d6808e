package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
    private static final long MILLISECOND = 1_000_000L;

    @Test
    void unlimitedGrantsWhatIsAskedFor() {
        RateLimiter limiter = RateLimiter.forRate(0);

        assertThat(limiter.grant(5, 100)).isEqualTo(5);
        assertThat(limiter.grant(5, 100)).isEqualTo(5);
        assertThat(limiter.grant(7, 3)).isEqualTo(7);
    }

    @Test
    void spacesPermitsByTheInverseOfTheRate() {
        RateLimiter limiter = RateLimiter.forRate(100);

        assertThat(limiter.spacingNanos()).isEqualTo(10 * MILLISECOND);
        // A burst of requests all due now is spread out 10 ms apart.
        assertThat(limiter.grant(0, 0)).isZero();
        assertThat(limiter.grant(0, 0)).isEqualTo(10 * MILLISECOND);
        assertThat(limiter.grant(0, 0)).isEqualTo(20 * MILLISECOND);
    }

    @Test
    void neverGrantsBeforeTheRequestedTime() {
        RateLimiter limiter = RateLimiter.forRate(100);

        assertThat(limiter.grant(0, 0)).isZero();
        assertThat(limiter.grant(50 * MILLISECOND, 1 * MILLISECOND)).isEqualTo(50 * MILLISECOND);
        assertThat(limiter.grant(51 * MILLISECOND, 50 * MILLISECOND)).isEqualTo(60 * MILLISECOND);
    }

    @Test
    void aCallerThatWakesUpLateStillReachesTheFullRate() {
        RateLimiter limiter = RateLimiter.forRate(1_000);
        long now = 0;
        for (int permit = 0; permit < 1_000; permit++) {
            long granted = limiter.grant(0, now);
            assertThat(granted).isEqualTo(permit * MILLISECOND);
            // Each wake-up comes 0.3 ms after the granted time.
            now = granted + 300_000;
        }
    }

    @Test
    void afterAStallCatchesUpAtMostTheAllowance() {
        RateLimiter limiter = RateLimiter.forRate(100);
        limiter.grant(0, 0);

        // The caller comes back a second late with a backlog: the permit that was due plus 100 ms worth (10) go at
        // once.
        long now = 1_000 * MILLISECOND;
        int immediate = 0;
        long granted = 0;
        for (int permit = 0; permit < 30; permit++) {
            granted = limiter.grant(20 * MILLISECOND, now);
            immediate += granted <= now ? 1 : 0;
        }
        assertThat(immediate).isEqualTo(11);
        assertThat(granted).isEqualTo(now + 19 * 10 * MILLISECOND);
    }

    @Test
    void sustainedRateMatchesTheLimitForFractionalRates() {
        RateLimiter limiter = RateLimiter.forRate(0.5);
        long last = 0;
        for (int permit = 0; permit < 10; permit++) {
            last = limiter.grant(0, last);
        }
        // Ten permits at half a permit per second take 18 s from the first to the last.
        assertThat(last).isEqualTo(18_000 * MILLISECOND);
    }

    @Test
    void capsTheNaturalScheduleWhenTheRateIsLower() {
        // 100 fixes due 1 ms apart (1000/s), capped at 250/s: the last one goes out at 99 * 4 ms.
        RateLimiter limiter = RateLimiter.forRate(250);
        long granted = 0;
        for (int sequence = 0; sequence < 100; sequence++) {
            granted = limiter.grant(sequence * MILLISECOND, granted);
        }
        assertThat(granted).isEqualTo(99 * 4 * MILLISECOND);
    }

    @Test
    void rejectsNegativeAndInfiniteRates() {
        assertThatThrownBy(() -> RateLimiter.forRate(-1)).hasMessageContaining("positive and finite");
        assertThatThrownBy(() -> RateLimiter.perSecond(Double.POSITIVE_INFINITY))
                .hasMessageContaining("positive and finite");
    }
}
