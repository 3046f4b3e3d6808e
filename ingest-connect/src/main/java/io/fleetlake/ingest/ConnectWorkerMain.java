package io.fleetlake.ingest;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the Kafka Connect worker with the MQTT source connector as its own process. */
@Command(
        name = "ingest-connect",
        mixinStandardHelpOptions = true,
        description = "Runs a Kafka Connect distributed worker that ingests MQTT position messages into Kafka"
                + " with exactly-once delivery.")
public final class ConnectWorkerMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectWorkerMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Connect and Kafka clients leave non-daemon threads behind: always leave through System.exit.
        System.exit(new CommandLine(new ConnectWorkerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        // The stack's health check waits for the "Connect worker ready on" line.
        return ServerProcess.runUntilShutdown("Connect worker", shutdown -> {
            ConnectWorkerConfig workerConfig = ConnectWorkerConfig.from(config.load());
            LOG.info("Starting with {}", workerConfig);
            ConnectWorker worker = shutdown.closes(new ConnectWorker(workerConfig));
            worker.start();
            return StartedServer.on(workerConfig.host() + ":" + worker.port());
        });
    }
}
