package io.fleetlake.trino;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the local Trino server until this process is stopped; the server stops with it. */
@Command(
        name = "trino-server",
        mixinStandardHelpOptions = true,
        description = "Starts a single-node Trino 476 with the Iceberg catalog and blocks until stopped.")
public final class TrinoServerMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoServerMain.class);

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
        TrinoServer server;
        try {
            server = new TrinoServer(TrinoConfig.from(config.load()));
        } catch (ConfigException e) {
            // The message names the key, the value and what to do; a stack trace would only hide it.
            LOG.error("Invalid Trino configuration: {}", e.getMessage());
            return 1;
        }
        AtomicBoolean stopRequested = new AtomicBoolean();
        // Registered before start, so that stopping this process while Trino starts does not leave Trino behind.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stopRequested.set(true);
                            server.close();
                        },
                        "trino-shutdown"));
        try {
            server.start();
        } catch (RuntimeException e) {
            if (stopRequested.get()) {
                LOG.info("Stopped while Trino was starting");
                return 0;
            }
            if (e instanceof TrinoServerException) {
                LOG.error("Trino did not start: {}", e.getMessage());
            } else {
                LOG.error("Trino did not start: {}", e.getMessage(), e);
            }
            return 1;
        }
        LOG.info("Trino ready on {}:{}", server.host(), server.port());

        int exitStatus = server.awaitTermination();
        if (stopRequested.get()) {
            return 0;
        }
        LOG.error("Trino exited unexpectedly with status {}; see the server log {}", exitStatus, server.logFile());
        return 1;
    }
}
