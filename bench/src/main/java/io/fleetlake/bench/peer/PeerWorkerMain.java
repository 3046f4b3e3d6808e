package io.fleetlake.bench.peer;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The peer's Kafka Connect distributed worker as its own process; the bench registers the Iceberg Kafka Connect sink
 * on it through the REST API. Logs {@code "Peer Connect worker ready on <host>:<port>"} once the REST API serves.
 */
@Command(
        name = "bench-peer-worker",
        mixinStandardHelpOptions = true,
        description = "Runs a Kafka Connect distributed worker for the Iceberg Kafka Connect sink of fleet bench.")
public final class PeerWorkerMain implements Callable<Integer> {
    /** The part of the ready line the bench waits for. */
    public static final String READY_LINE = "Peer Connect worker ready on";

    private static final Logger LOG = LoggerFactory.getLogger(PeerWorkerMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Connect and Kafka clients leave non-daemon threads behind: always leave through System.exit.
        System.exit(new CommandLine(new PeerWorkerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Peer Connect worker", shutdown -> {
            PeerWorkerConfig workerConfig = PeerWorkerConfig.from(config.load());
            LOG.info("Starting with {}", workerConfig);
            RunningWorker worker = shutdown.closes(new RunningWorker());
            worker.start(workerConfig);
            return StartedServer.on(workerConfig.host() + ":" + workerConfig.port());
        });
    }

    /** Connect as something the process closes when it stops. */
    private static final class RunningWorker implements AutoCloseable {
        private volatile Connect<?> connect;

        void start(PeerWorkerConfig workerConfig) {
            connect = new ConnectDistributed().startConnect(workerConfig.workerProperties());
        }

        @Override
        public void close() {
            Connect<?> current = connect;
            if (current != null) {
                current.stop();
            }
        }
    }
}
