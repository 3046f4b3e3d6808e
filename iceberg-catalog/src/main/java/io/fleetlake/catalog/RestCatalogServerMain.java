package io.fleetlake.catalog;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private static final Logger LOG = LoggerFactory.getLogger(RestCatalogServerMain.class);

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
            MetricsEndpointConfig metricsEndpoint = MetricsEndpointConfig.from(source, "catalog");
            CatalogMetrics metrics = new CatalogMetrics();
            RestCatalogServer server = new RestCatalogServer(serverConfig, metrics);
            AtomicReference<HTTPServer> metricsServer = new AtomicReference<>();
            shutdown.closes(() -> {
                try {
                    server.close();
                } finally {
                    HTTPServer running = metricsServer.getAndSet(null);
                    if (running != null) {
                        running.close();
                    }
                }
            });
            server.start();
            if (metricsEndpoint.enabled()) {
                metricsServer.set(startMetrics(metricsEndpoint, metrics));
            }
            return StartedServer.on(serverConfig.host() + ":" + server.port());
        });
    }

    private static HTTPServer startMetrics(MetricsEndpointConfig endpoint, CatalogMetrics metrics) {
        try {
            HTTPServer server = HTTPServer.builder()
                    .hostname(endpoint.host())
                    .port(endpoint.port().getAsInt())
                    .registry(metrics.registry())
                    .buildAndStart();
            LOG.info("Catalog metrics on http://{}:{}/metrics", endpoint.host(), server.getPort());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot serve the catalog's metrics on " + endpoint.host() + ":"
                            + endpoint.port().getAsInt() + " (catalog.metrics-port)",
                    e);
        }
    }
}
