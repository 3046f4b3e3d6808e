package io.fleetlake.operations.exporter;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs fleet-exporter as its own process until it is told to stop (SIGTERM, Ctrl-C). */
@Command(
        name = "fleet-exporter",
        mixinStandardHelpOptions = true,
        description = "Serves the fleet's consumer lag, Iceberg commit age, dead letters by reason, Redis freshness,"
                + " connector and job states and component probes as Prometheus metrics on /metrics, and the health"
                + " report of fleet status as JSON on /health. Keys: exporter.*, health.*")
public final class FleetExporterMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(FleetExporterMain.class);

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Exit explicitly: Kafka client threads must not keep a failed process alive.
        System.exit(new CommandLine(new FleetExporterMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("fleet-exporter", shutdown -> {
            ExporterConfig exporterConfig = ExporterConfig.from(config.load());
            LOG.info("Starting fleet-exporter with {}", exporterConfig);
            FleetExporter exporter = shutdown.closes(new FleetExporter(exporterConfig, Clock.systemUTC()));
            try {
                exporter.start();
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(
                        "Cannot listen on " + exporterConfig.host() + ":" + exporterConfig.port(), e);
            }
            return StartedServer.on(exporterConfig.host() + ":" + exporter.port());
        });
    }
}
