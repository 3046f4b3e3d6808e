package io.fleetlake.catalog;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
        RestCatalogServer server;
        try {
            CatalogServerConfig serverConfig = CatalogServerConfig.from(config.load());
            server = new RestCatalogServer(serverConfig).start();
            LOG.info("Iceberg REST catalog ready on {}:{}", serverConfig.host(), server.port());
        } catch (ConfigException e) {
            LOG.error("Iceberg REST catalog not started: {}", e.getMessage());
            return 1;
        } catch (RuntimeException | LinkageError e) {
            // LinkageError: a class missing from the classpath surfaces only when the catalog first loads it.
            LOG.error("Iceberg REST catalog failed to start: {}", e.getMessage(), e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "catalog-shutdown"));
        stopped.await();
        return 0;
    }
}
