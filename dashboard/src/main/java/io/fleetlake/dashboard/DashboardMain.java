package io.fleetlake.dashboard;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the operations dashboard as its own process until the process is told to stop. */
@Command(
        name = "dashboard",
        mixinStandardHelpOptions = true,
        description = "Serves the fleet operations page and its JSON API with the dashboard.* configuration.")
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
            DashboardServer server = shutdown.closes(new DashboardServer(DashboardConfig.from(config.load())));
            server.start();
            return StartedServer.on(server.endpoint());
        });
    }
}
