package io.fleetlake.operations.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.operations.health.HealthSnapshot.MaintenanceRun;
import io.fleetlake.operations.inspect.PrometheusText;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HealthCollectorTest {
    @Test
    void maintenanceRunsAreReadFromTheServicesGauges() {
        String scrape =
                """
                # HELP fleet_maintenance_last_run_success 1 when the last run of the table succeeded, else 0
                # TYPE fleet_maintenance_last_run_success gauge
                fleet_maintenance_last_run_success{table="fleet.positions"} 1.0
                fleet_maintenance_last_run_success{table="fleet.vehicle_minutes"} 0.0
                # TYPE fleet_maintenance_last_run_timestamp_seconds gauge
                fleet_maintenance_last_run_timestamp_seconds{table="fleet.positions"} 1.7961492E9
                fleet_maintenance_last_run_timestamp_seconds{table="fleet.vehicle_minutes"} 1.7961493E9
                fleet_maintenance_runs_total{outcome="succeeded",table="fleet.positions"} 3.0
                """;

        assertThat(HealthCollector.maintenanceRuns(PrometheusText.parse(scrape)))
                .containsExactly(
                        new MaintenanceRun("fleet.positions", Instant.ofEpochSecond(1_796_149_200L), true),
                        new MaintenanceRun("fleet.vehicle_minutes", Instant.ofEpochSecond(1_796_149_300L), false));
    }
}
