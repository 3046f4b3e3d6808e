package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The accounting of {@code fleet verify} as a plain function: every raw record ends in exactly one class, and the
 * findings name the keys. Expected values are worked out by hand from the small stages below; each failure class is
 * planted next to the healthy case it must not be confused with.
 */
class ReconcilerTest {
    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    /** When the pipeline's offsets were read in these tests. */
    private static final Instant NOW = Instant.parse("2026-11-29T09:00:00Z");

    private static final Duration STALLED_AFTER = Duration.ofSeconds(50);
    /** Received well within the threshold before {@link #NOW}. */
    private static final Instant RECENT = NOW.minusSeconds(5);

    private static Position position(String vehicle, int second) {
        return Position.of(vehicle, T0.plusSeconds(second), 40.0 + second * 0.001, -3.7, 30.0, 90.0);
    }

    /** The same key as {@link #position}, another place: what a conflicting resend carries. */
    private static Position elsewhere(String vehicle, int second) {
        return Position.of(vehicle, T0.plusSeconds(second), 41.0, -3.7, 30.0, 90.0);
    }

    private static FixKey key(String vehicle, int second) {
        return FixKey.of(vehicle, T0.plusSeconds(second));
    }

    private static RawTopicRecord raw(int partition, long offset, Position position) {
        return raw(partition, offset, position, RECENT);
    }

    private static RawTopicRecord raw(int partition, long offset, Position position, Instant receivedAt) {
        return new RawTopicRecord(partition, offset, Optional.of(receivedAt), Optional.of(FixContent.of(position)));
    }

    private static RawTopicRecord undecodable(int partition, long offset) {
        return new RawTopicRecord(partition, offset, Optional.of(RECENT), Optional.empty());
    }

    private static TableRows.Builder rows() {
        return TableRows.builder();
    }

    private static TableRows none() {
        return TableRows.builder().build();
    }

    private static Reconciler reconciler(Map<Integer, Long> committed, TableRows positions, TableRows rejected) {
        return new Reconciler(new PipelineOffsets(committed, NOW), STALLED_AFTER, positions, rejected, 10);
    }

    @Test
    void aCleanRunAccountsForEveryRecord() {
        TableRows positions = rows().position(FixContent.of(position("VH-1", 0)), 0, 0)
                .position(FixContent.of(position("VH-1", 5)), 0, 1)
                .position(FixContent.of(position("VH-2", 0)), 1, 0)
                .build();
        TableRows rejected = rows().rejected(Optional.empty(), 1, 1, "MALFORMED_PAYLOAD")
                .rejected(Optional.of(key("VH-2", 9)), 1, 3, "OUTSIDE_REGION")
                .build();
        Reconciler reconciler = reconciler(Map.of(0, 3L, 1, 4L), positions, rejected);

        reconciler.accept(raw(0, 0, position("VH-1", 0)));
        reconciler.accept(raw(0, 1, position("VH-1", 5)));
        reconciler.accept(raw(0, 2, position("VH-1", 0))); // a device resend: the same position again
        reconciler.accept(raw(1, 0, position("VH-2", 0)));
        reconciler.accept(undecodable(1, 1));
        reconciler.accept(raw(1, 3, position("VH-2", 9)));
        reconciler.accept(raw(1, 4, position("VH-2", 10))); // in flight for 5 s: not processed yet, and not late

        Reconciliation result = reconciler.result();
        assertThat(result.clean()).isTrue();
        assertThat(result.rawRecords()).isEqualTo(7);
        assertThat(result.rawUndecodable()).isEqualTo(1);
        assertThat(result.rawDistinctKeys()).isEqualTo(5);
        assertThat(result.written()).isEqualTo(3);
        assertThat(result.rejected()).isEqualTo(2);
        assertThat(result.resendsDropped()).isEqualTo(1);
        assertThat(result.resendsDroppedSamples()).containsExactly("VH-1@2026-11-29T08:00:00Z (gps.raw.positions/0/2)");
        assertThat(result.pending()).isEqualTo(1);
        assertThat(result.stalled().records()).isZero();
        assertThat(result.stalled().oldestAge()).isEmpty();
        assertThat(result.lostRecords()).isZero();
        assertThat(result.conflictingRecords()).isZero();
        assertThat(result.accountedRecords()).isEqualTo(result.rawRecords());
        assertThat(result.positionRows()).isEqualTo(3);
        assertThat(result.positionDistinctKeys()).isEqualTo(3);
        assertThat(result.rejectedRows()).isEqualTo(2);
        assertThat(result.rejectedRowsByReason())
                .containsExactlyInAnyOrderEntriesOf(Map.of("MALFORMED_PAYLOAD", 1L, "OUTSIDE_REGION", 1L));
        assertThat(result.keysWithoutRawRecord()).isZero();
    }

    @Test
    void lostKeysAreCountedDistinctAndNamed() {
        TableRows positions =
                rows().position(FixContent.of(position("VH-1", 0)), 0, 0).build();
        Reconciler reconciler = reconciler(Map.of(0, 10L), positions, none());

        reconciler.accept(raw(0, 0, position("VH-1", 0)));
        reconciler.accept(raw(0, 1, position("VH-1", 5)));
        reconciler.accept(raw(0, 2, position("VH-1", 5))); // the lost fix, delivered twice
        reconciler.accept(raw(0, 3, position("VH-3", 1)));
        reconciler.accept(undecodable(0, 4));

        Reconciliation result = reconciler.result();
        assertThat(result.clean()).isFalse();
        assertThat(result.lostRecords()).isEqualTo(4);
        assertThat(result.lostKeys()).isEqualTo(2);
        assertThat(result.lostUndecodable()).isEqualTo(1);
        assertThat(result.lost()).isEqualTo(3);
        assertThat(result.lostSamples())
                .containsExactly(
                        "VH-1@2026-11-29T08:00:05Z",
                        "VH-3@2026-11-29T08:00:01Z",
                        "gps.raw.positions/0/4 (undecodable)");
        assertThat(result.accountedRecords() + result.unaccountedRecords()).isEqualTo(result.rawRecords());
    }

    @Test
    void aKeyWithTwoRowsIsDuplicatedEvenWhenEveryRecordArrived() {
        FixContent first = FixContent.of(position("VH-1", 0));
        TableRows positions = rows().position(first, 0, 0)
                .position(first, 0, 0) // the same record written twice
                .position(first, 0, 1) // and its resend written too
                .position(FixContent.of(position("VH-1", 5)), 0, 2)
                .build();
        Reconciler reconciler = reconciler(Map.of(0, 3L), positions, none());
        reconciler.accept(raw(0, 0, position("VH-1", 0)));
        reconciler.accept(raw(0, 1, position("VH-1", 0)));
        reconciler.accept(raw(0, 2, position("VH-1", 5)));

        Reconciliation result = reconciler.result();

        assertThat(result.lost()).isZero();
        assertThat(result.duplicatedKeys()).isEqualTo(1);
        assertThat(result.duplicateRows()).isEqualTo(2);
        assertThat(result.duplicatedSamples()).containsExactly("VH-1@2026-11-29T08:00:00Z (3 rows)");
        assertThat(result.clean()).isFalse();
    }

    @Test
    void aResendIsDroppedOnlyWhenTheStoredRowIsTheSamePosition() {
        TableRows positions = rows().position(FixContent.of(position("VH-1", 0)), 0, 0)
                .position(FixContent.of(position("VH-2", 0)), 0, 2)
                .build();
        Reconciler reconciler = reconciler(Map.of(0, 4L), positions, none());
        reconciler.accept(raw(0, 0, position("VH-1", 0)));
        reconciler.accept(raw(0, 1, position("VH-1", 0))); // same key, same content: the pipeline drops it
        reconciler.accept(raw(0, 2, position("VH-2", 0)));
        reconciler.accept(raw(0, 3, elsewhere("VH-2", 0))); // same key, other content, and no rejected row

        Reconciliation result = reconciler.result();

        assertThat(result.resendsDropped()).isEqualTo(1);
        assertThat(result.resendsDroppedSamples()).containsExactly("VH-1@2026-11-29T08:00:00Z (gps.raw.positions/0/1)");
        assertThat(result.conflictingRecords()).isEqualTo(1);
        assertThat(result.conflictingKeys()).isEqualTo(1);
        assertThat(result.conflictingSamples())
                .containsExactly("VH-2@2026-11-29T08:00:00Z (gps.raw.positions/0/3: the stored row has other content)");
        assertThat(result.lost()).as("its key has a row: conflicting, not lost").isZero();
        assertThat(result.clean()).isFalse();
        assertThat(result.accountedRecords() + result.unaccountedRecords()).isEqualTo(result.rawRecords());
    }

    @Test
    void aConflictingResendWithItsOwnRejectedRowIsAccounted() {
        // What the pipeline does with it: a CONFLICTING_RESEND row naming the record.
        TableRows positions =
                rows().position(FixContent.of(position("VH-2", 0)), 0, 0).build();
        TableRows rejected = rows().rejected(Optional.of(key("VH-2", 0)), 0, 1, "CONFLICTING_RESEND")
                .build();
        Reconciler reconciler = reconciler(Map.of(0, 2L), positions, rejected);
        reconciler.accept(raw(0, 0, position("VH-2", 0)));
        reconciler.accept(raw(0, 1, elsewhere("VH-2", 0)));

        Reconciliation result = reconciler.result();

        assertThat(result.rejected()).isEqualTo(1);
        assertThat(result.conflictingRecords()).isZero();
        assertThat(result.clean()).isTrue();
    }

    @Test
    void aRowOfAnotherRecordWithTheSameKeyDoesNotHideALoss() {
        // The pipeline remembers accepted fixes only: a resend of a rejected fix is judged again and gets a row of its
        // own, so another record's rejected row with the key accounts for nothing here.
        TableRows rejected = rows().rejected(Optional.empty(), 0, 0, "PAYLOAD_TOO_LARGE")
                .rejected(Optional.of(key("VH-1", 7)), 0, 1, "OUTSIDE_REGION")
                .build();
        Reconciler reconciler = reconciler(Map.of(0, 3L), none(), rejected);
        reconciler.accept(raw(0, 0, position("VH-1", 3))); // rejected before it was decoded: its own row
        reconciler.accept(raw(0, 1, position("VH-1", 7)));
        reconciler.accept(raw(0, 2, position("VH-1", 7))); // its resend, with no row of its own

        Reconciliation result = reconciler.result();

        assertThat(result.rejected()).isEqualTo(2);
        assertThat(result.resendsDropped()).isZero();
        assertThat(result.lostRecords()).isEqualTo(1);
        assertThat(result.lostSamples()).containsExactly("VH-1@2026-11-29T08:00:07Z");
        assertThat(result.clean()).isFalse();
    }

    @Test
    void aRecordWaitingLongerThanTheThresholdIsStalled() {
        Reconciler reconciler = reconciler(Map.of(0, 1L, 1, 0L), none(), none());
        reconciler.accept(raw(0, 0, position("VH-1", 0), NOW.minusSeconds(500))); // committed past: lost
        reconciler.accept(raw(0, 1, position("VH-1", 1), NOW.minusSeconds(51)));
        reconciler.accept(raw(0, 2, position("VH-1", 2), NOW.minusSeconds(49))); // young: in flight
        reconciler.accept(raw(1, 0, position("VH-2", 0), NOW.minusSeconds(120)));
        reconciler.accept(raw(1, 1, position("VH-2", 1), NOW.minusSeconds(90)));

        Reconciliation result = reconciler.result();

        assertThat(result.stalled().records()).isEqualTo(3);
        assertThat(result.pending()).isEqualTo(1);
        assertThat(result.stalled().oldestAge()).contains(Duration.ofSeconds(120));
        assertThat(result.stalled().partitions())
                .containsExactly(
                        new StalledPartition(0, 1, 1, NOW.minusSeconds(51)),
                        new StalledPartition(1, 2, 0, NOW.minusSeconds(120)));
        assertThat(result.stalled().after()).isEqualTo(STALLED_AFTER);
        assertThat(result.clean()).isFalse();
        assertThat(result.accountedRecords() + result.unaccountedRecords()).isEqualTo(result.rawRecords());
    }

    @Test
    void aPartitionThePipelineNeverCommittedIsStalledOnlyOnceItsRecordsAreOld() {
        Reconciler young = reconciler(Map.of(), none(), none());
        young.accept(raw(0, 0, position("VH-1", 0)));
        young.accept(undecodable(1, 0));
        assertThat(young.result().pending()).isEqualTo(2);
        assertThat(young.result().clean()).isTrue();

        Reconciler old = reconciler(Map.of(), none(), none());
        old.accept(raw(0, 0, position("VH-1", 0), NOW.minus(STALLED_AFTER).minusMillis(1)));
        assertThat(old.result().stalled().records()).isEqualTo(1);
        assertThat(old.result().clean()).isFalse();
    }

    @Test
    void aReprocessedRecordIsNotJudgedByItsOriginalReceiveTime() {
        Reconciler reconciler = reconciler(Map.of(), none(), none());
        reconciler.accept(new RawTopicRecord(0, 0, Optional.empty(), Optional.of(FixContent.of(position("VH-1", 0)))));

        assertThat(reconciler.result().pending()).isEqualTo(1);
        assertThat(reconciler.result().stalled().records()).isZero();
    }

    @Test
    void aRecheckAgainstALaterReadFindsRowsWhoseCommitLandedLate() {
        Reconciler reconciler = reconciler(Map.of(0, 3L), none(), none());
        reconciler.accept(raw(0, 0, position("VH-1", 0)));
        reconciler.accept(raw(0, 1, position("VH-1", 5)));
        reconciler.accept(raw(0, 2, elsewhere("VH-1", 0)));
        assertThat(reconciler.hasUnaccounted()).isTrue();

        reconciler.recheck(
                rows().position(FixContent.of(position("VH-1", 0)), 0, 0).build(),
                rows().rejected(Optional.of(key("VH-1", 0)), 0, 2, "CONFLICTING_RESEND")
                        .build());

        Reconciliation result = reconciler.result();
        assertThat(result.written()).isEqualTo(1);
        assertThat(result.rejected()).isEqualTo(1);
        assertThat(result.lostKeys()).isEqualTo(1);
        assertThat(result.lostSamples()).containsExactly("VH-1@2026-11-29T08:00:05Z");
        assertThat(result.positionRows())
                .as("the later read replaces the first")
                .isEqualTo(1);
    }

    @Test
    void rowsWithoutARawRecordAreReportedNotFailed() {
        TableRows positions =
                rows().position(FixContent.of(position("VH-9", 0)), 0, 0).build();
        Reconciler reconciler = reconciler(Map.of(0, 0L), positions, none());

        Reconciliation result = reconciler.result();

        assertThat(result.keysWithoutRawRecord()).isEqualTo(1);
        assertThat(result.keysWithoutRawRecordSamples()).containsExactly("VH-9@2026-11-29T08:00:00Z");
        assertThat(result.clean()).isTrue();
    }

    @Test
    void samplesAreLimited() {
        Reconciler reconciler =
                new Reconciler(new PipelineOffsets(Map.of(0, 100L), NOW), STALLED_AFTER, none(), none(), 3);
        for (int second = 0; second < 50; second++) {
            reconciler.accept(raw(0, second, position("VH-1", second)));
        }

        Reconciliation result = reconciler.result();

        assertThat(result.lostKeys()).isEqualTo(50);
        assertThat(result.lostSamples()).hasSize(3).first().isEqualTo("VH-1@2026-11-29T08:00:00Z");
    }

    @Test
    void keysKeepMicroseconds() {
        FixKey key = FixKey.of("VH-1", Instant.parse("2026-11-29T08:00:00.123456789Z"));

        assertThat(key.eventMicros()).isEqualTo(1_795_939_200_123_456L);
        assertThat(key).hasToString("VH-1@2026-11-29T08:00:00.123456Z");
    }
}
