package io.fleetlake.stack.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The accounting of {@code fleet verify} as a plain function: every raw record ends in exactly one class, and the
 * findings name the keys. Expected values are worked out by hand from the small stages below.
 */
class ReconcilerTest {
    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");

    private static FixKey key(String vehicle, int second) {
        return FixKey.of(vehicle, T0.plusSeconds(second));
    }

    private static RawRecord raw(int partition, long offset, FixKey key) {
        return new RawRecord(partition, offset, Optional.of(key));
    }

    private static RawRecord undecodable(int partition, long offset) {
        return new RawRecord(partition, offset, Optional.empty());
    }

    @Test
    void aCleanRunAccountsForEveryRecord() {
        TableRows positions = TableRows.builder()
                .add(Optional.of(key("VH-1", 0)), 0, 0, Optional.empty())
                .add(Optional.of(key("VH-1", 5)), 0, 1, Optional.empty())
                .add(Optional.of(key("VH-2", 0)), 1, 0, Optional.empty())
                .build();
        TableRows rejected = TableRows.builder()
                .add(Optional.empty(), 1, 1, Optional.of("MALFORMED_PAYLOAD"))
                .add(Optional.of(key("VH-2", 9)), 1, 3, Optional.of("OUTSIDE_REGION"))
                .build();
        Reconciler reconciler = new Reconciler(Map.of(0, 3L, 1, 4L), positions, rejected);

        reconciler.accept(raw(0, 0, key("VH-1", 0)));
        reconciler.accept(raw(0, 1, key("VH-1", 5)));
        reconciler.accept(raw(0, 2, key("VH-1", 0))); // a device resend
        reconciler.accept(raw(1, 0, key("VH-2", 0)));
        reconciler.accept(undecodable(1, 1));
        reconciler.accept(raw(1, 3, key("VH-2", 9)));
        reconciler.accept(raw(1, 4, key("VH-2", 10))); // not processed yet

        Reconciliation result = reconciler.result(10);
        assertThat(result.clean()).isTrue();
        assertThat(result.rawRecords()).isEqualTo(7);
        assertThat(result.rawUndecodable()).isEqualTo(1);
        assertThat(result.rawDistinctKeys()).isEqualTo(5);
        assertThat(result.written()).isEqualTo(3);
        assertThat(result.rejected()).isEqualTo(2);
        assertThat(result.resendsDropped()).isEqualTo(1);
        assertThat(result.pending()).isEqualTo(1);
        assertThat(result.lostRecords()).isZero();
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
        TableRows positions = TableRows.builder()
                .add(Optional.of(key("VH-1", 0)), 0, 0, Optional.empty())
                .build();
        Reconciler reconciler =
                new Reconciler(Map.of(0, 10L), positions, TableRows.builder().build());

        reconciler.accept(raw(0, 0, key("VH-1", 0)));
        reconciler.accept(raw(0, 1, key("VH-1", 5)));
        reconciler.accept(raw(0, 2, key("VH-1", 5))); // the lost fix, delivered twice
        reconciler.accept(raw(0, 3, key("VH-3", 1)));
        reconciler.accept(undecodable(0, 4));

        Reconciliation result = reconciler.result(10);
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
        assertThat(result.accountedRecords() + result.lostRecords()).isEqualTo(result.rawRecords());
    }

    @Test
    void aKeyWithTwoRowsIsDuplicatedEvenWhenEveryRecordArrived() {
        TableRows positions = TableRows.builder()
                .add(Optional.of(key("VH-1", 0)), 0, 0, Optional.empty())
                .add(Optional.of(key("VH-1", 0)), 0, 0, Optional.empty()) // the same record written twice
                .add(Optional.of(key("VH-1", 0)), 0, 1, Optional.empty()) // and its resend written too
                .add(Optional.of(key("VH-1", 5)), 0, 2, Optional.empty())
                .build();
        Reconciler reconciler =
                new Reconciler(Map.of(0, 3L), positions, TableRows.builder().build());
        reconciler.accept(raw(0, 0, key("VH-1", 0)));
        reconciler.accept(raw(0, 1, key("VH-1", 0)));
        reconciler.accept(raw(0, 2, key("VH-1", 5)));

        Reconciliation result = reconciler.result(10);

        assertThat(result.lost()).isZero();
        assertThat(result.duplicatedKeys()).isEqualTo(1);
        assertThat(result.duplicateRows()).isEqualTo(2);
        assertThat(result.duplicatedSamples()).containsExactly("VH-1@2026-11-29T08:00:00Z (3 rows)");
        assertThat(result.clean()).isFalse();
    }

    @Test
    void aRecordRejectedUnderItsKeyOnlyIsNotLost() {
        // A payload too large is rejected before it is decoded: its row has no event time, only its source record.
        TableRows rejected = TableRows.builder()
                .add(Optional.empty(), 0, 0, Optional.of("PAYLOAD_TOO_LARGE"))
                .add(Optional.of(key("VH-1", 7)), 0, 1, Optional.of("OUTSIDE_REGION"))
                .build();
        Reconciler reconciler =
                new Reconciler(Map.of(0, 3L), TableRows.builder().build(), rejected);
        reconciler.accept(raw(0, 0, key("VH-1", 3)));
        reconciler.accept(raw(0, 1, key("VH-1", 7)));
        reconciler.accept(raw(0, 2, key("VH-1", 7))); // resent, dropped or rejected again under the same key

        Reconciliation result = reconciler.result(10);

        assertThat(result.lost()).isZero();
        assertThat(result.rejected()).isEqualTo(2);
        assertThat(result.resendsDropped()).isEqualTo(1);
    }

    @Test
    void aPartitionThePipelineNeverCommittedIsPendingNotLost() {
        Reconciler reconciler = new Reconciler(
                Map.of(), TableRows.builder().build(), TableRows.builder().build());
        reconciler.accept(raw(0, 0, key("VH-1", 0)));
        reconciler.accept(undecodable(1, 0));

        Reconciliation result = reconciler.result(10);

        assertThat(result.pending()).isEqualTo(2);
        assertThat(result.lost()).isZero();
    }

    @Test
    void aRecheckAgainstALaterReadFindsRowsWhoseCommitLandedLate() {
        Reconciler reconciler = new Reconciler(
                Map.of(0, 2L), TableRows.builder().build(), TableRows.builder().build());
        reconciler.accept(raw(0, 0, key("VH-1", 0)));
        reconciler.accept(raw(0, 1, key("VH-1", 5)));
        assertThat(reconciler.hasLost()).isTrue();

        reconciler.recheck(
                TableRows.builder()
                        .add(Optional.of(key("VH-1", 0)), 0, 0, Optional.empty())
                        .build(),
                TableRows.builder().build());

        Reconciliation result = reconciler.result(10);
        assertThat(result.written()).isEqualTo(1);
        assertThat(result.lostKeys()).isEqualTo(1);
        assertThat(result.lostSamples()).containsExactly("VH-1@2026-11-29T08:00:05Z");
        assertThat(result.positionRows())
                .as("the later read replaces the first")
                .isEqualTo(1);
    }

    @Test
    void rowsWithoutARawRecordAreReportedNotFailed() {
        TableRows positions = TableRows.builder()
                .add(Optional.of(key("VH-9", 0)), 0, 0, Optional.empty())
                .build();
        Reconciler reconciler =
                new Reconciler(Map.of(0, 0L), positions, TableRows.builder().build());

        Reconciliation result = reconciler.result(10);

        assertThat(result.keysWithoutRawRecord()).isEqualTo(1);
        assertThat(result.keysWithoutRawRecordSamples()).containsExactly("VH-9@2026-11-29T08:00:00Z");
        assertThat(result.clean()).isTrue();
    }

    @Test
    void samplesAreLimited() {
        Reconciler reconciler = new Reconciler(
                Map.of(0, 100L),
                TableRows.builder().build(),
                TableRows.builder().build());
        for (int second = 0; second < 50; second++) {
            reconciler.accept(raw(0, second, key("VH-1", second)));
        }

        Reconciliation result = reconciler.result(3);

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
