package io.fleetlake.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.bench.load.BacklogTimeline.BacklogSpan;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BacklogTimelineTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void firstBacklogEndsFiveSecondsBeforeItIsProducedWithThePreferredInterval() {
        BacklogSpan span = new BacklogTimeline().next(NOW, Duration.ofSeconds(1), 1_000_000, 2_000);

        assertThat(span.rounds()).isEqualTo(500);
        assertThat(span.fixInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(span.end()).isEqualTo(NOW.minus(BacklogTimeline.LEAD));
        assertThat(span.start()).isEqualTo(NOW.minusSeconds(505));
    }

    @Test
    void aBacklogThatWouldOverlapThePreviousOneIsSqueezedInAfterIt() {
        BacklogTimeline timeline = new BacklogTimeline();
        BacklogSpan first = timeline.next(NOW, Duration.ofSeconds(1), 1_000_000, 2_000);

        BacklogSpan second = timeline.next(NOW.plusSeconds(60), Duration.ofSeconds(1), 1_000_000, 2_000);

        assertThat(second.start()).isEqualTo(first.end().plusMillis(1));
        assertThat(second.fixInterval()).isEqualTo(Duration.ofMillis(119)); // 59.999 s / 500 rounds
        assertThat(second.end()).isBefore(NOW.plusSeconds(55));
    }

    @Test
    void aBacklogLongAfterThePreviousKeepsThePreferredInterval() {
        BacklogTimeline timeline = new BacklogTimeline();
        BacklogSpan first = timeline.next(NOW, Duration.ofSeconds(1), 10_000, 2_000);

        BacklogSpan second = timeline.next(NOW.plusSeconds(3_600), Duration.ofSeconds(1), 10_000, 2_000);

        assertThat(second.fixInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(second.start()).isAfter(first.end());
    }

    @Test
    void refusesWhenNotEvenOneMillisecondPerRoundFits() {
        BacklogTimeline timeline = new BacklogTimeline();
        timeline.next(NOW, Duration.ofSeconds(1), 1_000_000, 2_000);

        assertThatThrownBy(() -> timeline.next(NOW.plusMillis(100), Duration.ofSeconds(1), 1_000_000, 2_000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No room for 500 fixes per vehicle");
    }
}
