package io.fleetlake.dashboard;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.dashboard.health.DashboardHealthConfig;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private static final Logger LOG = LoggerFactory.getLogger(DashboardMain.class);

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
            MetricsEndpointConfig metricsEndpoint = MetricsEndpointConfig.from(source, "dashboard");
            DashboardMetrics metrics = new DashboardMetrics();
            DashboardServer server = new DashboardServer(
                    dashboardConfig,
                    DashboardSecurityConfig.from(source),
                    DashboardHealthConfig.from(source).reader(),
                    metrics);
            AtomicReference<HTTPServer> metricsServer = new AtomicReference<>();
            shutdown.closes(() -> {
                try {
                    server.close();
                } finally {
                    HTTPServer running = metricsServer.getAndSet(null);
                    if (running != null) {
                        running.close();
                    }
                }
            });
            server.start();
            if (metricsEndpoint.enabled()) {
                metricsServer.set(startMetrics(metricsEndpoint, metrics));
            }
            return StartedServer.on(server.endpoint());
        });
    }

    private static HTTPServer startMetrics(MetricsEndpointConfig endpoint, DashboardMetrics metrics) {
        try {
            HTTPServer server = HTTPServer.builder()
                    .hostname(endpoint.host())
                    .port(endpoint.port().getAsInt())
                    .registry(metrics.registry())
                    .buildAndStart();
            LOG.info("Dashboard metrics on http://{}:{}/metrics", endpoint.host(), server.getPort());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot serve the dashboard's metrics on " + endpoint.host() + ":"
                            + endpoint.port().getAsInt() + " (dashboard.metrics-port)",
                    e);
        }
    }
}
