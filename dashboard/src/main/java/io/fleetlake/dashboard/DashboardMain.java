package io.fleetlake.dashboard;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.dashboard.health.DashboardHealthConfig;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.fleetlake.http.MetricsEndpoint;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the operations dashboard as its own process until the process is told to stop. */
@Command(
        name = "dashboard",
        mixinStandardHelpOptions = true,
        description = "Serves the fleet operations page and its JSON API with the dashboard.* configuration; request"
                + " metrics on dashboard.metrics-port when set.")
public final class DashboardMain implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Jetty and the Redis pool may leave non-daemon threads behind after a failed start: exit explicitly.
        System.exit(new CommandLine(new DashboardMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Dashboard", shutdown -> {
            ConfigSource source = config.load();
            DashboardConfig dashboardConfig = DashboardConfig.from(source);
            DashboardMetrics metrics = new DashboardMetrics();
            MetricsEndpoint metricsEndpoint = new MetricsEndpoint(
                    MetricsEndpointConfig.from(source, "dashboard"), "dashboard", "Dashboard", metrics.registry());
            DashboardServer server = new DashboardServer(
                    dashboardConfig,
                    DashboardSecurityConfig.from(source),
                    DashboardHealthConfig.from(source).reader(),
                    metrics);
            shutdown.closes(() -> {
                try {
                    server.close();
                } finally {
                    metricsEndpoint.close();
                }
            });
            server.start();
            metricsEndpoint.start();
            return StartedServer.on(server.endpoint());
        });
    }
}
