package io.fleetlake.ingest;

import io.fleetlake.common.config.ConfigOptions;
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
    public Integer call() {
        ConnectWorker worker;
        ConnectWorkerConfig workerConfig;
        try {
            workerConfig = ConnectWorkerConfig.from(config.load());
            LOG.info("Starting with {}", workerConfig);
            worker = new ConnectWorker(workerConfig);
            Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "connect-worker-shutdown"));
            worker.start();
        } catch (RuntimeException e) {
            LOG.error("Connect worker failed to start: {}", e.getMessage(), e);
            return 1;
        }
        LOG.info("Connect worker ready on {}:{}", workerConfig.host(), worker.port());
        worker.awaitStop();
        return 0;
    }
}
