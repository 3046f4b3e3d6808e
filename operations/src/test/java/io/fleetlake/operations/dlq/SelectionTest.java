package io.fleetlake.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.RejectionReason;
import io.fleetlake.operations.dlq.DeadLetterReprocessor.Selection;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SelectionTest {
    private static final Instant SINCE = Instant.parse("2026-11-29T08:00:00Z");

    @Test
    void selectsByReasonAndRejectionTime() {
        Selection selection = new Selection(Set.of(RejectionReason.OUTSIDE_REGION), Optional.of(SINCE));

        assertThat(selection.matches(Optional.of(RejectionReason.OUTSIDE_REGION), SINCE))
                .isTrue();
        assertThat(selection.matches(Optional.of(RejectionReason.OUTSIDE_REGION), SINCE.minusMillis(1)))
                .isFalse();
        assertThat(selection.matches(Optional.of(RejectionReason.SPEED_TOO_HIGH), SINCE.plusSeconds(1)))
                .isFalse();
        assertThat(selection.matches(Optional.empty(), SINCE.plusSeconds(1))).isFalse();
    }

    @Test
    void withoutSinceEveryRecordOfTheReasonMatches() {
        Selection selection = new Selection(Set.of(RejectionReason.UNKNOWN_SCHEMA), Optional.empty());

        assertThat(selection.matches(Optional.of(RejectionReason.UNKNOWN_SCHEMA), Instant.EPOCH))
                .isTrue();
    }

    @Test
    void needsAReason() {
        assertThatThrownBy(() -> new Selection(Set.of(), Optional.empty()))
                .hasMessageContaining("at least one rejection reason");
    }
}
