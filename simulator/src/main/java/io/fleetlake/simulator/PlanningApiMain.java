package io.fleetlake.simulator;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.simulator.planning.PlanningApiConfig;
import io.fleetlake.simulator.planning.PlanningApiServer;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the planning API server as its own process until it is told to stop (SIGTERM, Ctrl-C). */
@Command(
        name = "planning-api",
        mixinStandardHelpOptions = true,
        description = "Serves the current route of every simulated vehicle (the planning API) over HTTP.",
        footer = {
            "",
            "Keys (defaults): planning.host (127.0.0.1), planning.port (8090), planning.token (required: clients send",
            "Authorization: Bearer <token>), planning.max-request-bytes (1048576), planning.max-concurrent-requests",
            "(16); the fleet comes from the simulator's simulator.seed (42), simulator.vehicles (340) and",
            "simulator.delivery-stop-duration (3m).",
            "Environment: FLEET_PLANNING_PORT and so on."
        })
public final class PlanningApiMain implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Exit explicitly: Jetty threads must not keep a failed process alive.
        System.exit(new CommandLine(new PlanningApiMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Planning API", shutdown -> {
            PlanningApiConfig serverConfig = PlanningApiConfig.from(config.load());
            PlanningApiServer server =
                    shutdown.closes(new PlanningApiServer(serverConfig)).start();
            return StartedServer.on(serverConfig.host() + ":" + server.port());
        });
    }
}
