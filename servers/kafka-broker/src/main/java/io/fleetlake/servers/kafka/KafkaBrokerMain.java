package io.fleetlake.servers.kafka;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the Kafka broker as its own process until the process is told to stop. */
@Command(
        name = "kafka-broker",
        mixinStandardHelpOptions = true,
        description = "Runs a single-node Kafka broker (KRaft combined mode) with the kafka.* configuration.")
public final class KafkaBrokerMain implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Kafka leaves non-daemon threads behind after a failed start: exit explicitly.
        System.exit(new CommandLine(new KafkaBrokerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Kafka broker", shutdown -> {
            KafkaBroker broker = shutdown.closes(new KafkaBroker(KafkaBrokerConfig.from(config.load())));
            broker.start();
            return StartedServer.on(broker.bootstrapServers());
        });
    }
}
