package io.fleetlake.operations.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AffectedWindowTest {
    @Test
    void windowIsTheEpochAlignedMinuteHoldingTheEventTime() {
        AffectedWindow window = AffectedWindow.containing("VH-1", Instant.parse("2026-11-29T18:03:59.999Z"));

        assertThat(window.windowStart()).isEqualTo(Instant.parse("2026-11-29T18:03:00Z"));
        assertThat(window.windowEnd()).isEqualTo(Instant.parse("2026-11-29T18:04:00Z"));
    }

    @Test
    void windowsSortByVehicleThenTime() {
        AffectedWindow early = new AffectedWindow("VH-1", Instant.parse("2026-11-29T18:00:00Z"));
        AffectedWindow late = new AffectedWindow("VH-1", Instant.parse("2026-11-29T18:01:00Z"));
        AffectedWindow other = new AffectedWindow("VH-0", Instant.parse("2026-11-29T19:00:00Z"));

        assertThat(java.util.List.of(late, other, early).stream().sorted()).containsExactly(other, early, late);
    }

    @Test
    void startMustBeAWholeMinute() {
        assertThatThrownBy(() -> new AffectedWindow("VH-1", Instant.parse("2026-11-29T18:00:30Z")))
                .hasMessageContaining("not at a whole minute");
    }
}
