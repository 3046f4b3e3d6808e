package io.fleetlake.maintenance.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DanglingDeletesTest {
    private static final String DAY_1 = "0/window_start_day=2026-11-30";
    private static final String DAY_2 = "0/window_start_day=2026-12-01";

    @Test
    void equalityDeletesNoHigherThanEveryDataFileOfTheirPartitionDangle() {
        // After compaction day 1 holds one file with data sequence number 10 (the compaction's starting snapshot)
        // and a file the writer added later (12). Deletes up to 10 were applied by the rewrite.
        Map<String, List<Long>> data = Map.of(DAY_1, List.of(10L, 12L), DAY_2, List.of(3L));
        DeleteFileView applied = equality("applied", DAY_1, 10);
        DeleteFileView older = equality("older", DAY_1, 7);
        DeleteFileView later = equality("later", DAY_1, 11);
        DeleteFileView otherDay = equality("other-day", DAY_2, 5);

        assertThat(DanglingDeletes.find(data, List.of(applied, older, later, otherDay)))
                .containsExactly(applied, older);
    }

    @Test
    void positionDeletesApplyToDataOfTheirOwnSequenceNumber() {
        Map<String, List<Long>> data = Map.of(DAY_1, List.of(10L));
        DeleteFileView sameCommit = position("same", DAY_1, 10);
        DeleteFileView before = position("before", DAY_1, 9);

        assertThat(DanglingDeletes.find(data, List.of(sameCommit, before))).containsExactly(before);
    }

    @Test
    void deletesOfAPartitionWithoutDataDangleAndGlobalDeletesLookAtEveryPartition() {
        Map<String, List<Long>> data = Map.of(DAY_2, List.of(8L));
        DeleteFileView emptyPartition = equality("empty", DAY_1, 3);
        DeleteFileView globalApplying = new DeleteFileView("global-9", "", 9, true, true);
        DeleteFileView globalDangling = new DeleteFileView("global-8", "", 8, true, true);

        assertThat(DanglingDeletes.find(data, List.of(emptyPartition, globalApplying, globalDangling)))
                .containsExactly(emptyPartition, globalDangling);
    }

    private static DeleteFileView equality(String name, String partition, long sequenceNumber) {
        return new DeleteFileView(name, partition, sequenceNumber, true, false);
    }

    private static DeleteFileView position(String name, String partition, long sequenceNumber) {
        return new DeleteFileView(name, partition, sequenceNumber, false, false);
    }
}
