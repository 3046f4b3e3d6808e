package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import io.fleetlake.model.PositionFingerprint;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The content verify compares is the pipeline's fingerprint, at the precision the table keeps. */
class FixContentTest {
    private static final Instant MILLIS = Instant.parse("2026-11-29T08:00:00.123Z");

    @Test
    void aMillisecondPositionHasThePipelinesFingerprint() {
        Position position = new Position("VH-1", MILLIS, 40.4, -3.7, 30.0, 90.0, 650.0, 4.5, 9, 80.0);

        assertThat(FixContent.of(position).fingerprint()).isEqualTo(PositionFingerprint.of(position));
        assertThat(FixContent.of(position).key()).isEqualTo(FixKey.of("VH-1", MILLIS));
    }

    @Test
    void aRowReadBackAtMicrosecondsMatchesTheRecordItWasWrittenFrom() {
        Position sent = Position.of("VH-1", Instant.parse("2026-11-29T08:00:00.123456789Z"), 40.4, -3.7, 30.0, 90.0);
        Position stored = Position.of("VH-1", Instant.parse("2026-11-29T08:00:00.123456Z"), 40.4, -3.7, 30.0, 90.0);

        assertThat(FixContent.of(sent)).isEqualTo(FixContent.of(stored));
    }

    @Test
    void everyMeasurementIsContent() {
        Position base = new Position("VH-1", MILLIS, 40.4, -3.7, 30.0, 90.0, 650.0, 4.5, 9, 80.0);

        assertThat(FixContent.of(new Position("VH-1", MILLIS, 40.4, -3.7, 30.0, 90.0, 650.0, 4.5, 9, null)))
                .isNotEqualTo(FixContent.of(base));
        assertThat(FixContent.of(new Position("VH-1", MILLIS, 40.4, -3.7, 30.0, 91.0, 650.0, 4.5, 9, 80.0)))
                .isNotEqualTo(FixContent.of(base));
        assertThat(FixContent.of(new Position("VH-1", MILLIS, 40.4, -3.7, 30.0, 90.0, 650.0, 4.5, 10, 80.0)))
                .isNotEqualTo(FixContent.of(base));
    }
}
