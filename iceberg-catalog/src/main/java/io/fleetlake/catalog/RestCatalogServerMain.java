package io.fleetlake.catalog;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.http.MetricsEndpoint;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Runs the Iceberg REST catalog server as its own process until it is told to stop (SIGTERM, Ctrl-C). */
@Command(
        name = "iceberg-catalog",
        mixinStandardHelpOptions = true,
        description =
                "Iceberg REST catalog server over a JDBC catalog (SQLite or PostgreSQL) and S3-compatible storage.")
public final class RestCatalogServerMain implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    public static void main(String[] args) {
        // Exit explicitly: Jetty and JDBC driver threads must not keep a failed process alive.
        System.exit(new CommandLine(new RestCatalogServerMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        return ServerProcess.runUntilShutdown("Iceberg REST catalog", shutdown -> {
            ConfigSource source = config.load();
            CatalogServerConfig serverConfig = CatalogServerConfig.from(source);
            CatalogMetrics metrics = new CatalogMetrics();
            MetricsEndpoint metricsEndpoint = new MetricsEndpoint(
                    MetricsEndpointConfig.from(source, "catalog"), "catalog", "Catalog", metrics.registry());
            RestCatalogServer server = new RestCatalogServer(serverConfig, metrics);
            shutdown.closes(() -> {
                try {
                    server.close();
                } finally {
                    metricsEndpoint.close();
                }
            });
            server.start();
            metricsEndpoint.start();
            return StartedServer.on(serverConfig.host() + ":" + server.port());
        });
    }
}
