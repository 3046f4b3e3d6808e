package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.bench.phase.FixStages.Hop;
import io.fleetlake.bench.phase.FixStages.Stage;
import io.fleetlake.bench.report.Breakdown;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FixStagesTest {
    private static final Hop DEVICE_TO_REDIS = hop("device -> Redis");
    private static final Hop KAFKA_TO_REDIS = hop("committed in Kafka -> written to Redis by the pipeline");

    @Test
    void aHopIsMeasuredOverTheFixesSeenAtBothEndsFromTheEventTime() {
        FixStages stages = new FixStages();
        stages.record("V1", 1_000, Stage.KAFKA, 1_300);
        stages.record("V1", 1_000, Stage.REDIS, 1_450);
        stages.record("V2", 1_000, Stage.REDIS, 1_900);
        stages.record("V3", 2_000, Stage.KAFKA, 2_100);

        assertThat(stages.latencies(DEVICE_TO_REDIS, 0, 10_000)).containsExactlyInAnyOrder(450L, 900L);
        assertThat(stages.latencies(KAFKA_TO_REDIS, 0, 10_000)).containsExactly(150L);
    }

    @Test
    void theFirstTimeAFixReachesAStageCountsAndOnlyFixesSentInTheWindowDo() {
        FixStages stages = new FixStages();
        stages.record("V1", 1_000, Stage.REDIS, 1_500);
        // A resend seen again later does not move it; an earlier observation does.
        stages.record("V1", 1_000, Stage.REDIS, 1_800);
        stages.record("V1", 1_000, Stage.REDIS, 1_400);
        stages.record("V1", 5_000, Stage.REDIS, 5_100);

        assertThat(stages.latencies(DEVICE_TO_REDIS, 0, 5_000)).containsExactly(400L);
        assertThat(stages.latencies(DEVICE_TO_REDIS, 5_000, 6_000)).containsExactly(100L);
    }

    @Test
    void theBreakdownHasPercentilesPerHopAndACountForHopsNotSeen() {
        FixStages stages = new FixStages();
        for (int fix = 0; fix < 100; fix++) {
            stages.record("V1", fix * 1_000L, Stage.RECEIVED, fix * 1_000L + fix + 1);
        }

        Breakdown breakdown = stages.breakdown(0, 1_000_000, List.of("note"));

        assertThat(breakdown.columns()).containsExactly("p50", "p95", "p99", "max", "fixes");
        assertThat(breakdown.rows()).hasSize(FixStages.HOPS.size());
        Breakdown.Row received = breakdown.rows().get(0);
        assertThat(received.label()).isEqualTo("device -> received by the Connect source");
        assertThat(received.values())
                .containsExactly(
                        Optional.of(50.0),
                        Optional.of(95.0),
                        Optional.of(99.0),
                        Optional.of(100.0),
                        Optional.of(100.0));
        assertThat(breakdown.rows().get(1).values())
                .containsExactly(
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(0.0));
    }

    @Test
    void withoutAnyHopTheBreakdownSaysWhy() {
        assertThat(new FixStages().breakdown(0, 1, List.of()).notMeasured()).isPresent();
        assertThatThrownBy(() -> new FixStages().record("V1", 1, Stage.SENT, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Hop hop(String label) {
        return FixStages.HOPS.stream()
                .filter(hop -> hop.label().equals(label))
                .findFirst()
                .orElseThrow();
    }
}
