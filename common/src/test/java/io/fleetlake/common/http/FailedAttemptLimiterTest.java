package io.fleetlake.common.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FailedAttemptLimiterTest {
    private final MutableClock clock = new MutableClock();

    @Test
    void blocksTheAttemptAfterTheLastAllowedFailureUntilTheWindowEnds() {
        FailedAttemptLimiter limiter = new FailedAttemptLimiter(10, Duration.ofMinutes(15), clock);
        for (int attempt = 1; attempt <= 10; attempt++) {
            assertThat(limiter.blocked("10.0.0.1")).as("attempt %s", attempt).isFalse();
            limiter.failed("10.0.0.1");
        }
        assertThat(limiter.blocked("10.0.0.1")).as("the 11th attempt").isTrue();
        assertThat(limiter.blocked("10.0.0.2")).as("another address").isFalse();
        clock.advance(Duration.ofMinutes(10));
        assertThat(limiter.blocked("10.0.0.1")).isTrue();
        assertThat(limiter.retryAfter("10.0.0.1")).isEqualTo(Duration.ofMinutes(5));
        clock.advance(Duration.ofMinutes(5));
        assertThat(limiter.blocked("10.0.0.1")).isFalse();
        assertThat(limiter.retryAfter("10.0.0.1")).isZero();
    }

    @Test
    void failuresOfAnEndedWindowNoLongerCount() {
        FailedAttemptLimiter limiter = new FailedAttemptLimiter(3, Duration.ofMinutes(1), clock);
        limiter.failed("a");
        limiter.failed("a");
        clock.advance(Duration.ofMinutes(1));
        limiter.failed("a");
        limiter.failed("a");
        assertThat(limiter.blocked("a")).isFalse();
        limiter.failed("a");
        assertThat(limiter.blocked("a")).isTrue();
    }

    @Test
    void tracksAtMostMaxAddressesForgettingTheEldest() {
        FailedAttemptLimiter limiter = new FailedAttemptLimiter(1, Duration.ofHours(1), 2, clock);
        limiter.failed("a");
        limiter.failed("b");
        limiter.failed("c");
        assertThat(limiter.blocked("a")).isFalse();
        assertThat(limiter.blocked("b")).isTrue();
        assertThat(limiter.blocked("c")).isTrue();
    }

    @Test
    void refusesSettingsThatWouldNotLimit() {
        assertThatThrownBy(() -> new FailedAttemptLimiter(0, Duration.ofMinutes(1), clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxFailures");
        assertThatThrownBy(() -> new FailedAttemptLimiter(1, Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window");
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
