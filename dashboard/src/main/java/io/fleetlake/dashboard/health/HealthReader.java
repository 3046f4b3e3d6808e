package io.fleetlake.dashboard.health;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;

/**
 * The stack's health report, as {@code fleet status --json} prints it: computed by fleet-exporter (stack module),
 * which the dashboard asks on {@code /health}, so the page and the command line judge health the same way.
 */
@FunctionalInterface
public interface HealthReader {
    /** Answers that no exporter is configured ({@code dashboard.health-uri}). */
    HealthReader NOT_CONFIGURED = () -> {
        throw new DashboardException(
                DashboardError.HEALTH_UNAVAILABLE,
                "No health report: set dashboard.health-uri to fleet-exporter's /health");
    };

    /**
     * The report as JSON.
     *
     * @throws DashboardException {@code HEALTH_UNAVAILABLE} when it cannot be read
     */
    String healthJson();
}
