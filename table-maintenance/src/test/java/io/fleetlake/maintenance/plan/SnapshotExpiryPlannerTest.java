package io.fleetlake.maintenance.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.maintenance.plan.ExpiryPlan.KeepReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A main branch of one snapshot every 10 s over eight days (ids 1, 2, 3, ... in commit order), like the pipeline
 * writes, with daily audit tags; the expected sets are written out from the rules, not computed by the planner.
 */
class SnapshotExpiryPlannerTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    private static final ExpiryPolicy SEVEN_DAYS = new ExpiryPolicy(Duration.ofDays(7), 1);

    @Test
    void snapshotsOlderThanTheWindowExpireAndTaggedOnesStay() {
        // 100 snapshots, one an hour, the newest at NOW: ids 1..100, id n committed at NOW - (100 - n) h.
        List<SnapshotView> chain = chain(100, Duration.ofHours(1));
        long tagged = 3; // committed 97 h (4 days) ago... older than a 2-day window
        List<RefView> refs = List.of(
                RefView.mainBranch(100), RefView.tag("audit-2026-11-27", tagged, Optional.of(Duration.ofDays(400))));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(chain, refs, NOW, new ExpiryPolicy(Duration.ofDays(2), 1));

        // Within 48 h: ids 52..100 (id 52 is exactly 48 h old and stays).
        List<Long> expected = new ArrayList<>();
        for (long id = 1; id <= 51; id++) {
            if (id != tagged) {
                expected.add(id);
            }
        }
        assertThat(plan.expired()).containsExactlyElementsOf(expected);
        assertThat(plan.kept()).containsEntry(tagged, KeepReason.REFERENCED);
        assertThat(plan.kept()).containsEntry(100L, KeepReason.REFERENCED);
        assertThat(plan.kept()).containsEntry(52L, KeepReason.WITHIN_WINDOW);
        assertThat(plan.kept()).hasSize(50);
        assertThat(plan.refsRemoved()).isEmpty();
    }

    @Test
    void aTagPastItsOwnRetentionIsRemovedAndItsSnapshotExpires() {
        List<SnapshotView> chain = chain(20, Duration.ofDays(1));
        List<RefView> refs = List.of(
                RefView.mainBranch(20),
                RefView.tag("audit-old", 2, Optional.of(Duration.ofDays(10))),
                RefView.tag("audit-forever", 1, Optional.empty()));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(chain, refs, NOW, SEVEN_DAYS);

        // id 2 is 18 days old, past its tag's 10 days; id 1 is tagged without a retention.
        assertThat(plan.refsRemoved()).containsExactly("audit-old");
        assertThat(plan.expired()).contains(2L).doesNotContain(1L);
        assertThat(plan.kept()).containsEntry(1L, KeepReason.REFERENCED);
        // 7 days back from id 20: ids 13..20.
        assertThat(plan.kept().keySet()).containsExactlyInAnyOrder(1L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L);
    }

    @Test
    void theNewestSnapshotsAreKeptWhateverTheirAge() {
        List<SnapshotView> chain = chain(10, Duration.ofDays(30));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(
                chain,
                List.of(RefView.mainBranch(10)),
                NOW.plus(Duration.ofDays(1)),
                new ExpiryPolicy(Duration.ofDays(7), 3));

        assertThat(plan.kept())
                .isEqualTo(Map.of(10L, KeepReason.REFERENCED, 9L, KeepReason.RETAIN_LAST, 8L, KeepReason.RETAIN_LAST));
        assertThat(plan.expired()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void aDaysHistoryAtTenSecondCommitsIsKeptByTheSevenDayWindow() {
        List<SnapshotView> chain = chain(8_640, Duration.ofSeconds(10));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(chain, List.of(RefView.mainBranch(8_640)), NOW, SEVEN_DAYS);

        assertThat(plan.expired()).isEmpty();
        assertThat(plan.kept()).hasSize(8_640);
    }

    @Test
    void aSnapshotOffTheBranchIsKeptOnlyWithinTheWindow() {
        // 1 <- 2 <- 3 (main), 1 <- 4 (rolled back, no ref), 4 is recent, 5 <- 4 is old and unreferenced too.
        List<SnapshotView> snapshots = List.of(
                snapshot(1, null, NOW.minus(Duration.ofDays(20))),
                snapshot(2, 1L, NOW.minus(Duration.ofDays(1))),
                snapshot(3, 2L, NOW),
                snapshot(4, 1L, NOW.minus(Duration.ofHours(1))),
                snapshot(5, 1L, NOW.minus(Duration.ofDays(9))));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(snapshots, List.of(RefView.mainBranch(3)), NOW, SEVEN_DAYS);

        assertThat(plan.expired()).containsExactly(1L, 5L);
        assertThat(plan.kept()).containsEntry(4L, KeepReason.WITHIN_WINDOW);
    }

    @Test
    void aBranchKeepsItsOwnRetention() {
        List<SnapshotView> snapshots = List.of(
                snapshot(1, null, NOW.minus(Duration.ofDays(30))),
                snapshot(2, 1L, NOW.minus(Duration.ofDays(20))),
                snapshot(3, 2L, NOW),
                snapshot(4, 2L, NOW.minus(Duration.ofDays(15))));
        RefView audit = new RefView(
                "audit-branch", true, 4, Optional.empty(), Optional.of(Duration.ofDays(25)), OptionalInt.of(1));

        ExpiryPlan plan = SnapshotExpiryPlanner.plan(snapshots, List.of(RefView.mainBranch(3), audit), NOW, SEVEN_DAYS);

        assertThat(plan.expired()).containsExactly(1L);
        assertThat(plan.kept().keySet()).containsExactlyInAnyOrder(2L, 3L, 4L);
    }

    /** Snapshots 1..count, each the parent of the next, the newest committed at NOW. */
    private static List<SnapshotView> chain(int count, Duration every) {
        List<SnapshotView> snapshots = new ArrayList<>();
        for (long id = 1; id <= count; id++) {
            snapshots.add(snapshot(id, id == 1 ? null : id - 1, NOW.minus(every.multipliedBy(count - id))));
        }
        return snapshots;
    }

    private static SnapshotView snapshot(long id, Long parent, Instant committedAt) {
        return new SnapshotView(id, parent == null ? OptionalLong.empty() : OptionalLong.of(parent), committedAt);
    }
}
