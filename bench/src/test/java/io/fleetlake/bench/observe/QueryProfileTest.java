package io.fleetlake.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QueryProfileTest {
    /** Parts of a Trino 476 EXPLAIN ANALYZE VERBOSE answer. */
    private static final String PLAN = String.join(
            "\n",
            "Trino version: 476",
            "Queued: 432.00us, Analysis: 39.85ms, Planning: 1.30s, Execution: 4.75s",
            "Fragment 2 [SOURCE]",
            "    CPU: 3.49ms, Scheduled: 45.82ms, Blocked 0.00ns (Input: 0.00ns, Output: 0.00ns), Input: 17280 rows (0B)",
            "    ScanFilterProject[table = iceberg:fleet.positions$data@5030991862435027072 constraint on [event_time]]",
            "        splits generation metrics:",
            "          'dataFileSizeBytes' = LongCount{total=91234}",
            "          'dataFiles' = LongCount{total=3}",
            "          'dataManifests' = LongCount{total=2}",
            "          'skippedDataFiles' = LongCount{total=45}",
            "          'skippedDataManifests' = LongCount{total=40}",
            "          'scanPlanningDuration' = {duration=120.50ms}",
            "        Input: 17280 rows (1.12MB), Filtered: 0.00%, Physical input: 356.66kB, Physical input time:"
                    + " 37.52us, Splits: 3, Splits generation wait time: 40.26ms");

    @Test
    void readsWhereTheTimeWentAndWhatTheScanRead() {
        QueryProfile profile = QueryProfile.parse(PLAN);

        assertThat(profile.figure(QueryProfile.QUEUED_MS).getAsDouble()).isCloseTo(0.432, within(1e-9));
        assertThat(profile.figure(QueryProfile.ANALYSIS_MS)).hasValue(39.85);
        assertThat(profile.figure(QueryProfile.PLANNING_MS)).hasValue(1_300.0);
        assertThat(profile.figure(QueryProfile.EXECUTION_MS)).hasValue(4_750.0);
        assertThat(profile.figure(QueryProfile.SCAN_PLANNING_MS)).hasValue(120.5);
        assertThat(profile.figure(QueryProfile.DATA_FILES)).hasValue(3.0);
        assertThat(profile.figure(QueryProfile.SKIPPED_DATA_FILES)).hasValue(45.0);
        assertThat(profile.figure(QueryProfile.DATA_MANIFESTS)).hasValue(2.0);
        assertThat(profile.figure(QueryProfile.SKIPPED_DATA_MANIFESTS)).hasValue(40.0);
        assertThat(profile.figure(QueryProfile.INPUT_ROWS)).hasValue(17_280.0);
        assertThat(profile.figure(QueryProfile.SPLITS)).hasValue(3.0);
    }

    @Test
    void whatThePlanDoesNotSayIsAbsent() {
        QueryProfile profile = QueryProfile.parse("Trino version: 476\n");

        assertThat(profile.figures()).isEmpty();
        assertThat(profile.figure(QueryProfile.PLANNING_MS)).isEmpty();
    }

    @Test
    void readsTrinosDurations() {
        assertThat(QueryProfile.millis("1.20m")).isEqualTo(72_000);
        assertThat(QueryProfile.millis("250.00ns")).isCloseTo(0.00025, within(1e-12));
        assertThatThrownBy(() -> QueryProfile.millis("soon")).isInstanceOf(IllegalArgumentException.class);
    }
}
