package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.trino.audit.TagPlanner.ExistingTag;
import io.fleetlake.trino.audit.TagPlanner.TagPlan;
import java.time.Instant;
import java.time.LocalDate;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TagPlannerTest {
    private static final LocalDate DAY = LocalDate.of(2026, 11, 28);
    private static final Instant NEXT_MORNING = Instant.parse("2026-11-29T06:00:00Z");

    /** Snapshots on the 27th, two on the 28th (the last one a second before midnight), one on the 29th. */
    private static TableMetadataJson history() {
        return new TableMetadataJson()
                .commit(10, "2026-11-27T12:00:00Z")
                .commit(20, "2026-11-28T09:00:00Z")
                .commit(30, "2026-11-28T23:59:59Z")
                .commit(40, "2026-11-29T00:00:00Z");
    }

    @Test
    void tagsTheNewestSnapshotCommittedBeforeTheDayEnded() {
        TagPlan plan = TagPlanner.plan(history().view(), AuditTable.POSITIONS, DAY, ExistingTag.REFUSE, NEXT_MORNING);

        assertThat(plan.tagName()).isEqualTo("audit-2026-11-28");
        assertThat(plan.target().snapshotId()).isEqualTo(30);
        assertThat(plan.action()).isEqualTo(TagResult.Action.CREATED);
        assertThat(plan.previousSnapshotId()).isEmpty();
    }

    @Test
    void aDayWithoutCommitsGetsThePreviousDaysLastSnapshot() {
        TagPlan plan = TagPlanner.plan(
                history().view(), AuditTable.POSITIONS, LocalDate.of(2026, 11, 27), ExistingTag.REFUSE, NEXT_MORNING);

        assertThat(plan.target().snapshotId()).isEqualTo(10);
    }

    @Test
    void theSameTagOnTheSameSnapshotIsUnchanged() {
        TableMetadataView view = history().tag("audit-2026-11-28", 30, 1000).view();

        TagPlan plan = TagPlanner.plan(view, AuditTable.POSITIONS, DAY, ExistingTag.REFUSE, NEXT_MORNING);

        assertThat(plan.action()).isEqualTo(TagResult.Action.UNCHANGED);
        assertThat(plan.previousSnapshotId()).isEqualTo(OptionalLong.of(30));
    }

    @Test
    void aTagOnAnotherSnapshotIsAConflictUnlessForced() {
        TableMetadataView view = history().tag("audit-2026-11-28", 20, 1000).view();

        assertThatThrownBy(() -> TagPlanner.plan(view, AuditTable.POSITIONS, DAY, ExistingTag.REFUSE, NEXT_MORNING))
                .isInstanceOf(AuditException.class)
                .hasMessage("Tag audit-2026-11-28 of fleet.positions points to snapshot 20 (committed at"
                        + " 2026-11-28T09:00:00.000Z), but the newest snapshot committed by the end of 2026-11-28 (UTC)"
                        + " is 30 (committed at 2026-11-28T23:59:59.000Z): pass --force to move the tag")
                .extracting(exception -> ((AuditException) exception).error())
                .isEqualTo(AuditError.TAG_CONFLICT);

        TagPlan forced = TagPlanner.plan(view, AuditTable.POSITIONS, DAY, ExistingTag.MOVE, NEXT_MORNING);
        assertThat(forced.action()).isEqualTo(TagResult.Action.MOVED);
        assertThat(forced.target().snapshotId()).isEqualTo(30);
        assertThat(forced.previousSnapshotId()).isEqualTo(OptionalLong.of(20));
    }

    @Test
    void aBranchWithTheTagsNameIsNeverMoved() {
        TableMetadataView view = history().ref("audit-2026-11-28", "branch", 20).view();

        assertThatThrownBy(() -> TagPlanner.plan(view, AuditTable.POSITIONS, DAY, ExistingTag.MOVE, NEXT_MORNING))
                .isInstanceOf(AuditException.class)
                .hasMessageContaining("has a branch named audit-2026-11-28, not a tag");
    }

    @Test
    void aDayThatIsNotOverCannotBeTagged() {
        assertThatThrownBy(() -> TagPlanner.plan(
                        history().view(),
                        AuditTable.POSITIONS,
                        DAY,
                        ExistingTag.REFUSE,
                        Instant.parse("2026-11-28T23:59:59.999Z")))
                .isInstanceOf(AuditException.class)
                .hasMessage("Day 2026-11-28 is not over yet in UTC: tag it after 2026-11-29T00:00:00.000Z, or give an"
                        + " earlier --date")
                .extracting(exception -> ((AuditException) exception).exitCode())
                .isEqualTo(2);
    }

    @Test
    void aTableWithoutSnapshotsHasNothingToTag() {
        assertThatThrownBy(() -> TagPlanner.plan(
                        new TableMetadataJson().view(), AuditTable.POSITIONS, DAY, ExistingTag.REFUSE, NEXT_MORNING))
                .isInstanceOf(AuditException.class)
                .hasMessage("fleet.positions has no snapshot yet: there is nothing to tag for 2026-11-28");
    }

    @Test
    void aDayBeforeTheFirstSnapshotNamesIt() {
        assertThatThrownBy(() -> TagPlanner.plan(
                        history().view(),
                        AuditTable.POSITIONS,
                        LocalDate.of(2026, 11, 26),
                        ExistingTag.REFUSE,
                        NEXT_MORNING))
                .isInstanceOf(AuditException.class)
                .hasMessage("fleet.positions has no snapshot committed by the end of 2026-11-26 (UTC): its first"
                        + " snapshot was committed at 2026-11-27T12:00:00.000Z; give a later --date")
                .extracting(exception -> ((AuditException) exception).error())
                .isEqualTo(AuditError.NO_SNAPSHOT_FOR_DAY);
    }

    @Test
    void aDayWhoseSnapshotsExpiredSaysSo() {
        TableMetadataView view = history().expire(10).expire(20).view();

        assertThatThrownBy(() -> TagPlanner.plan(
                        view, AuditTable.POSITIONS, LocalDate.of(2026, 11, 27), ExistingTag.REFUSE, NEXT_MORNING))
                .isInstanceOf(AuditException.class)
                .hasMessageContaining("its oldest snapshot still kept was committed at 2026-11-28T23:59:59.000Z (older"
                        + " ones expired)");
    }
}
