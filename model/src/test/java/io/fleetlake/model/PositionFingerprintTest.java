package io.fleetlake.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Fingerprints live in checkpoints: a release must compute the ones its predecessors stored. */
class PositionFingerprintTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.123Z");
    private static final Position WITHOUT_BATTERY =
            new Position("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0, 655.0, 4.5, 11, null);
    private static final Position WITH_BATTERY =
            new Position("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0, 655.0, 4.5, 11, 80.0);

    @Test
    void positionsWithoutBatteryLevelKeepTheFingerprintOfTheFirstRelease() {
        // Values computed by the first release's implementation.
        assertThat(PositionFingerprint.of(WITHOUT_BATTERY)).isEqualTo(1438154582222481063L);
        assertThat(PositionFingerprint.of(Position.of("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0)))
                .isEqualTo(-4717330764097409548L);
    }

    @Test
    void batteryLevelIsPartOfTheContent() {
        assertThat(PositionFingerprint.of(WITH_BATTERY))
                .isNotEqualTo(PositionFingerprint.of(WITHOUT_BATTERY))
                .isNotEqualTo(PositionFingerprint.of(
                        new Position("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0, 655.0, 4.5, 11, 79.0)));
    }
}
