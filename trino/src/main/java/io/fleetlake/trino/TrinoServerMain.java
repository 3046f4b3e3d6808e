package io.fleetlake.trino;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the local Trino server until this process is stopped; the server stops with it. */
@Command(
        name = "trino-server",
        mixinStandardHelpOptions = true,
        description = "Starts a single-node Trino 476 with the Iceberg catalog and blocks until stopped.")
public final class TrinoServerMain implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        int status = new CommandLine(new TrinoServerMain()).execute(args);
        // On a clean stop the JVM is already running its shutdown hooks, and System.exit would block forever.
        if (status != 0) {
            System.exit(status);
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Trino", shutdown -> {
            TrinoServer server = shutdown.closes(new TrinoServer(TrinoConfig.from(config.load())));
            server.start();
            // Trino runs in its own process, which can end without this one being stopped.
            return StartedServer.on(server.host() + ":" + server.port())
                    .watching(() -> "Trino exited unexpectedly with status " + server.awaitTermination()
                            + "; see the server log " + server.logFile());
        });
    }
}
