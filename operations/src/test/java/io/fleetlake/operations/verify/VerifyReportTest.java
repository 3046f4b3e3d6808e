package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.Position;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineRestarts;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The verdict and exit status of {@code fleet verify} for each finding, as text and JSON. */
class VerifyReportTest {
    private static final Instant NOW = Instant.parse("2026-11-29T09:00:00Z");
    private static final Position FIX = Position.of("VH-1", NOW.minusSeconds(3600), 40.4, -3.7, 30.0, 90.0);

    private static Reconciliation reconcile(Instant receivedAt) {
        Reconciler reconciler = new Reconciler(
                new PipelineOffsets(Map.of(0, 0L), NOW),
                Duration.ofSeconds(34),
                TableRows.builder().build(),
                TableRows.builder().build(),
                10);
        reconciler.accept(new RawTopicRecord(0, 7, Optional.of(receivedAt), Optional.of(FixContent.of(FIX))));
        return reconciler.result();
    }

    private static VerifyReport report(Reconciliation reconciliation, Optional<PipelineWait> wait) {
        return new VerifyReport(
                VerifyScope.everything(),
                reconciliation,
                0,
                RedisComparison.compare(Map.of(), Map.of(), 10, Instant.EPOCH, Duration.ofDays(7)),
                new PipelineRestarts(Optional.of("job"), "RUNNING", OptionalLong.of(0)),
                Optional.empty(),
                wait,
                false,
                Duration.ofSeconds(1),
                IngestHopReconciliation.notReconciled(Duration.ofSeconds(10), "not part of this test"));
    }

    @Test
    void aYoungRecordInFlightPasses() {
        VerifyReport report = report(reconcile(NOW.minusSeconds(2)), Optional.empty());

        assertThat(report.exitCode()).isZero();
        assertThat(report.toText())
                .contains("OK: nothing lost")
                .contains("1 records were in flight for less than 34 s");
    }

    @Test
    void aStalledRecordFailsWithItsCountAgeAndPartition() throws Exception {
        VerifyReport report = report(reconcile(NOW.minusSeconds(95)), Optional.empty());

        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.toText())
                .contains("FAILED: 1 stalled")
                .contains("the oldest for 95 s")
                .contains("gps.raw.positions/0 from offset 7: 1 records");
        JsonNode json = new ObjectMapper().readTree(report.toJson());
        assertThat(json.path("passed").asBoolean()).isFalse();
        assertThat(json.at("/stalled/records").asLong()).isEqualTo(1);
        assertThat(json.at("/stalled/oldest_age_seconds").asLong()).isEqualTo(95);
        assertThat(json.at("/stalled/partitions/0/partition").asInt()).isZero();
        assertThat(json.at("/raw/stalled").asLong()).isEqualTo(1);
    }

    @Test
    void aWaitThatTimedOutFailsEvenWhenNothingElseDoes() throws Exception {
        PipelineWait timedOut = new PipelineWait(Duration.ofMinutes(2), Map.of(0, 120L), Map.of(0, 100L), 20);
        VerifyReport report = report(reconcile(NOW.minusSeconds(2)), Optional.of(timedOut));

        assertThat(report.reconciliation().clean()).isTrue();
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.toText())
                .contains("FAILED: the pipeline did not commit past offsets {0=120} within 120 s: it is at {0=100},"
                        + " 20 records behind");
        JsonNode json = new ObjectMapper().readTree(report.toJson());
        assertThat(json.at("/wait/caught_up").asBoolean()).isFalse();
        assertThat(json.at("/wait/behind").asLong()).isEqualTo(20);
    }

    @Test
    void aWaitThatCaughtUpPasses() {
        PipelineWait caughtUp = new PipelineWait(Duration.ofMinutes(2), Map.of(0, 120L), Map.of(0, 120L), 0);

        assertThat(report(reconcile(NOW.minusSeconds(2)), Optional.of(caughtUp)).exitCode())
                .isZero();
    }
}
