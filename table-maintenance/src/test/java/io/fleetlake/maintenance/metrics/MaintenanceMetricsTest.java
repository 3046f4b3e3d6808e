package io.fleetlake.maintenance.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.maintenance.run.StepResults;
import io.fleetlake.maintenance.run.TableReport;
import io.fleetlake.maintenance.run.TableState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class MaintenanceMetricsTest {
    private static final TableIdentifier POSITIONS = TableIdentifier.of("fleet", "positions");

    @Test
    void eachRunAddsToTheCountersAndSetsTheLastRunGauges() {
        MaintenanceMetrics metrics = new MaintenanceMetrics();

        // Ended 2026-12-04T00:00:02.5Z = epoch second 1,796,342,402.5.
        metrics.record(report(List.of(), 40, 3));
        metrics.record(report(List.of("snapshot expiry: conflicted"), 10, 0));

        String scrape = metrics.scrape();
        assertThat(scrape)
                .contains("fleet_maintenance_runs_total{outcome=\"succeeded\",table=\"fleet.positions\"} 1.0")
                .contains("fleet_maintenance_runs_total{outcome=\"failed\",table=\"fleet.positions\"} 1.0")
                .contains("fleet_maintenance_files_rewritten_total{table=\"fleet.positions\"} 50.0")
                .contains("fleet_maintenance_snapshots_expired_total{table=\"fleet.positions\"} 3.0")
                .contains("fleet_maintenance_orphans_removed_total{table=\"fleet.positions\"} 4.0")
                .contains("fleet_maintenance_last_run_success{table=\"fleet.positions\"} 0.0")
                .contains("fleet_maintenance_last_run_timestamp_seconds{table=\"fleet.positions\"} 1.7963424025E9")
                .contains("fleet_maintenance_last_run_duration_seconds{table=\"fleet.positions\"} 2.5")
                .contains("fleet_maintenance_data_files{table=\"fleet.positions\"} 7.0")
                .contains("fleet_maintenance_snapshots{table=\"fleet.positions\"} 20.0");
    }

    @Test
    void aDryRunIsCountedButChangesNoOtherSeries() {
        MaintenanceMetrics metrics = new MaintenanceMetrics();
        TableReport plan = report(List.of(), 40, 3);

        metrics.record(new TableReport(
                plan.table(),
                plan.startedAt(),
                plan.elapsed(),
                true,
                plan.before(),
                plan.after(),
                plan.compaction(),
                plan.manifests(),
                plan.expiry(),
                plan.orphans(),
                plan.failures()));

        assertThat(metrics.scrape())
                .contains("fleet_maintenance_runs_total{outcome=\"dry_run\",table=\"fleet.positions\"} 1.0")
                .doesNotContain("fleet_maintenance_files_rewritten_total")
                .doesNotContain("fleet_maintenance_last_run_success");
    }

    private static TableReport report(List<String> failures, long filesRewritten, long expired) {
        return new TableReport(
                POSITIONS,
                Instant.parse("2026-12-04T00:00:00Z"),
                Duration.ofMillis(2_500),
                false,
                new TableState(100, 1000, 0, 30, 0, 23),
                new TableState(7, 1000, 0, 2, 0, 20),
                new StepResults.Compaction(2, 2, filesRewritten, 900, 2, 900, 0),
                new StepResults.Manifests(true, 30, 2),
                new StepResults.Expiry(expired, 20, 1, Set.of()),
                new StepResults.Orphans(2, 2, 300),
                failures);
    }
}
