package io.fleetlake.flink.vehicles;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.vehicles.FixJudge.Accepted;
import io.fleetlake.flink.vehicles.FixJudge.Baseline;
import io.fleetlake.flink.vehicles.FixJudge.Rejected;
import io.fleetlake.flink.vehicles.FixJudge.Resend;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.validation.PositionValidator;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The per-vehicle rules as plain functions, without Flink: a verdict never changes the track, applying it does. */
class FixJudgeTest {
    private static final FixJudge JUDGE =
            new FixJudge(new PositionValidator(TestRecords.RULES), EnrichmentConfig.defaults());
    private static final long NOW = Instant.parse("2026-11-29T18:00:02Z").toEpochMilli();
    private static final Instant T0 = TestRecords.EVENT_TIME;

    private final VehicleTrack track = new VehicleTrack(8);

    @Test
    void firstFixIsAcceptedAndBecomesTheBaselineOnlyOnceApplied() {
        IngestedPosition first = TestRecords.ingested(TestRecords.position("VH-1", T0), 0, 1);

        FixJudge.Verdict verdict = JUDGE.judge(track, first, NOW);

        assertThat(verdict).isInstanceOfSatisfying(Accepted.class, accepted -> {
            assertThat(accepted.baseline()).isEqualTo(Baseline.MOVE);
            assertThat(accepted.enrichment()).isEqualTo(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
        });
        assertThat(track.hasBaseline()).isFalse();
        assertThat(track.accepted().size()).isZero();

        JUDGE.apply(track, first, verdict);

        assertThat(track.hasBaseline()).isTrue();
        assertThat(track.baselineTime()).isEqualTo(T0);
        assertThat(track.accepted().find(T0)).isNotNegative();
        assertThat(JUDGE.judge(track, TestRecords.ingested(first.position(), 0, 2), NOW))
                .isInstanceOf(Resend.class);
    }

    @Test
    void aRejectedJumpIsRememberedAsTheLastRejectedFixButNotAsAnAcceptedOne() {
        IngestedPosition madrid = TestRecords.ingested(TestRecords.position("VH-1", T0), 0, 1);
        JUDGE.apply(track, madrid, JUDGE.judge(track, madrid, NOW));
        IngestedPosition barcelona =
                TestRecords.ingested(TestRecords.at("VH-1", T0.plusSeconds(10), 41.3874, 2.1686), 0, 2);

        FixJudge.Verdict verdict = JUDGE.judge(track, barcelona, NOW);
        JUDGE.apply(track, barcelona, verdict);

        assertThat(verdict).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.IMPLAUSIBLE_JUMP);
            assertThat(rejected.rememberAsJump()).isTrue();
        });
        assertThat(track.hasRejectedJump()).isTrue();
        assertThat(track.accepted().find(barcelona.position().eventTime())).isNegative();
        assertThat(track.baselineTime()).isEqualTo(T0);
    }

    @Test
    void aConflictChangesNothing() {
        IngestedPosition madrid = TestRecords.ingested(TestRecords.position("VH-1", T0), 0, 1);
        JUDGE.apply(track, madrid, JUDGE.judge(track, madrid, NOW));
        IngestedPosition moved = TestRecords.ingested(TestRecords.at("VH-1", T0, 40.42, -3.70), 0, 2);

        FixJudge.Verdict verdict = JUDGE.judge(track, moved, NOW);
        JUDGE.apply(track, moved, verdict);

        assertThat(verdict).isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(rejected.rememberAsJump())
                .isFalse());
        assertThat(track.hasRejectedJump()).isFalse();
        assertThat(track.accepted().size()).isEqualTo(1);
    }
}
