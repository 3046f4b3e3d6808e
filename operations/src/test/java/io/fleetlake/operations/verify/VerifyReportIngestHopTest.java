package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineRestarts;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The hop before Kafka in {@code fleet verify}'s verdict, text and JSON, with every other stage clean. */
class VerifyReportIngestHopTest {
    private static final Duration WINDOW = Duration.ofSeconds(12);
    private static final Instant STARTED = Instant.parse("2026-12-01T08:00:00Z");

    @Test
    void aGapFailsTheVerificationAndIsNamed() throws Exception {
        VerifyReport report = report(hop(1_000, 400, 0));

        assertThat(report.passed()).isFalse();
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.toText())
                .contains("accepted and never reached Kafka (gap)")
                .contains("FAILED: 600 accepted by the MQTT broker never reached Kafka");
        JsonNode json = new ObjectMapper().readTree(report.toJson());
        assertThat(json.at("/ingest_hop/gap").asLong()).isEqualTo(600);
        assertThat(json.at("/ingest_hop/accepted").asLong()).isEqualTo(1_000);
        assertThat(json.at("/ingest_hop/clean").asBoolean()).isFalse();
    }

    @Test
    void aDropFailsTheVerification() {
        VerifyReport report = report(hop(1_000, 1_000, 3));

        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.toText()).contains("FAILED: 3 dropped by the MQTT broker");
    }

    @Test
    void everythingAccountedForPasses() {
        VerifyReport report = report(hop(1_000, 1_000, 0));

        assertThat(report.exitCode()).isZero();
        assertThat(report.toText()).contains("OK: nothing lost, nothing duplicated");
    }

    @Test
    void aHopThatCouldNotBeReconciledSaysWhyAndDoesNotFail() {
        VerifyReport report = report(IngestHopReconciliation.notReconciled(WINDOW, "cannot read the broker"));

        assertThat(report.exitCode()).isZero();
        assertThat(report.toText()).contains("not reconciled: cannot read the broker");
    }

    private static IngestHopReconciliation hop(long accepted, long raw, long dropped) {
        return IngestHopReconciliation.compare(
                new BrokerCounters(Map.of("tcp", 0L), OptionalLong.of(0), OptionalLong.of(0), Optional.of(STARTED)),
                new BrokerCounters(
                        Map.of("tcp", accepted), OptionalLong.of(dropped), OptionalLong.of(0), Optional.of(STARTED)),
                raw,
                0,
                WINDOW);
    }

    private static VerifyReport report(IngestHopReconciliation hop) {
        Reconciliation clean = new Reconciler(
                        new PipelineOffsets(Map.of(), STARTED),
                        Duration.ofSeconds(34),
                        TableRows.builder().build(),
                        TableRows.builder().build(),
                        10)
                .result();
        return new VerifyReport(
                VerifyScope.everything(),
                clean,
                0,
                RedisComparison.compare(Map.of(), Map.of(), 10, Instant.EPOCH, Duration.ofDays(7)),
                new PipelineRestarts(Optional.of("job"), "RUNNING", OptionalLong.of(0)),
                Optional.empty(),
                Optional.empty(),
                false,
                Duration.ofSeconds(1),
                hop);
    }
}
