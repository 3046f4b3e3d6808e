package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RedisComparisonTest {
    private static final long NEWEST_MICROS = 1_795_939_200_123_456L; // 2026-11-29T08:00:00.123456Z
    /** Read a day after the newest position, within the 7-day TTL. */
    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");

    private static final Duration TTL = Duration.ofDays(7);

    @Test
    void comparesAtRedisPrecisionAndTellsBehindMissingAndAhead() {
        RedisComparison comparison = RedisComparison.compare(
                Map.of("A", NEWEST_MICROS, "B", NEWEST_MICROS, "C", NEWEST_MICROS, "D", NEWEST_MICROS),
                Map.of(
                        "A", Optional.of(1_795_939_200_123L),
                        "B", Optional.of(1_795_939_199_000L),
                        "C", Optional.empty(),
                        "D", Optional.of(1_795_939_201_000L)),
                10,
                NOW,
                TTL);

        assertThat(comparison)
                .returns(4L, RedisComparison::vehicles)
                .returns(1L, RedisComparison::matching)
                .returns(1L, RedisComparison::behind)
                .returns(1L, RedisComparison::missing)
                .returns(1L, RedisComparison::ahead);
        assertThat(comparison.samples())
                .containsExactly(
                        "B behind: Redis 2026-11-29T07:59:59Z, fleet.positions 2026-11-29T08:00:00.123Z",
                        "C missing: Redis none, fleet.positions 2026-11-29T08:00:00.123Z",
                        "D ahead: Redis 2026-11-29T08:00:01Z, fleet.positions 2026-11-29T08:00:00.123Z");
        assertThat(comparison.clean()).isFalse();
    }

    @Test
    void aheadAloneIsClean() {
        RedisComparison comparison = RedisComparison.compare(
                Map.of("A", NEWEST_MICROS), Map.of("A", Optional.of(1_795_939_300_000L)), 10, NOW, TTL);

        assertThat(comparison.clean()).isTrue();
    }

    @Test
    void aVehicleRedisWasNeverAskedAboutIsMissing() {
        RedisComparison comparison = RedisComparison.compare(Map.of("A", NEWEST_MICROS), Map.of(), 10, NOW, TTL);

        assertThat(comparison.missing()).isEqualTo(1);
    }

    @Test
    void aVehicleUnseenForLongerThanTheTtlThatRedisNoLongerHoldsExpiredAndIsNotLost() {
        // 2026-11-29T08:00:00.123Z + 7 days = 2026-12-06T08:00:00.123Z
        RedisComparison justBefore = RedisComparison.compare(
                Map.of("A", NEWEST_MICROS), Map.of(), 10, Instant.parse("2026-12-06T08:00:00.123Z"), TTL);
        RedisComparison after = RedisComparison.compare(
                Map.of("A", NEWEST_MICROS, "B", NEWEST_MICROS),
                Map.of("B", Optional.of(1_795_939_199_000L)),
                10,
                Instant.parse("2026-12-06T08:00:00.124Z"),
                TTL);

        assertThat(justBefore.missing()).isEqualTo(1);
        assertThat(justBefore.expired()).isZero();
        assertThat(after.missing()).isZero();
        assertThat(after.expired()).isEqualTo(1);
        assertThat(after.behind())
                .as("a vehicle Redis still holds is compared as before")
                .isEqualTo(1);
        assertThat(after.samples()).noneMatch(sample -> sample.startsWith("A "));
    }

    @Test
    void expiredAloneIsClean() {
        RedisComparison comparison =
                RedisComparison.compare(Map.of("A", NEWEST_MICROS), Map.of(), 10, NOW.plus(Duration.ofDays(30)), TTL);

        assertThat(comparison.clean()).isTrue();
    }
}
