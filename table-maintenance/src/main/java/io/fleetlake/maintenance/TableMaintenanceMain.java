package io.fleetlake.maintenance;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.process.ServerProcess;
import io.fleetlake.common.process.ServerProcess.StartedServer;
import io.fleetlake.maintenance.metrics.MaintenanceMetrics;
import io.fleetlake.maintenance.run.CatalogConnection;
import io.fleetlake.maintenance.run.TableMaintainer;
import io.fleetlake.maintenance.run.TableReport;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The table maintenance process: continuously (the default, as a component of the stack and a compose service), or
 * one run with {@code --once} / {@code --dry-run}, which {@code fleet maintain} starts.
 */
@Command(
        name = "table-maintenance",
        mixinStandardHelpOptions = true,
        description = {
            "Iceberg table maintenance beside the streaming writer: compacts small data files (applying delete files),"
                    + " drops dangling delete files, rewrites manifests, expires snapshots (every audit-* tag is kept"
                    + " for its retention) and removes orphan files older than maintenance.orphan-min-age.",
            "Without options it runs every maintenance.interval and serves metrics on"
                    + " maintenance.metrics-host:maintenance.metrics-port; --once runs once and exits."
        })
public final class TableMaintenanceMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(TableMaintenanceMain.class);

    @Mixin
    ConfigOptions config;

    @Option(
            names = "--once",
            description = "Run once over the tables, print a summary and exit (1 when a step failed).")
    boolean once;

    @Option(
            names = "--dry-run",
            description =
                    "Plan only: show what a run would compact, expire and remove; change nothing. Implies --once.")
    boolean dryRun;

    @Option(
            names = "--table",
            paramLabel = "NAMESPACE.TABLE",
            description = "Maintain only this table (repeatable). Default: maintenance.tables.")
    List<String> tables = new ArrayList<>();

    public static void main(String[] args) {
        // The AWS SDK and the HTTP server leave threads behind: exit explicitly.
        System.exit(new CommandLine(new TableMaintenanceMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (once || dryRun) {
            return runOnce(System.out);
        }
        return ServerProcess.runUntilShutdown("Table maintenance", shutdown -> {
            MaintenanceConfig maintenance = MaintenanceConfig.from(configuration());
            MaintenanceService service = shutdown.closes(
                    new MaintenanceService(maintenance, CatalogConnection.open(maintenance), new MaintenanceMetrics()));
            int port = service.start();
            return StartedServer.on(maintenance.metricsHost() + ":" + port);
        });
    }

    private ConfigSource configuration() {
        ConfigSource source = config.load();
        if (tables.isEmpty()) {
            return source;
        }
        return source.withOverrides(Map.of(MaintenanceConfig.TABLES, String.join(",", tables)), "--table");
    }

    private int runOnce(PrintStream out) {
        MaintenanceConfig maintenance;
        try {
            maintenance = MaintenanceConfig.from(configuration());
        } catch (ConfigException e) {
            System.err.println("table-maintenance: " + e.getMessage());
            return 2;
        }
        long start = System.nanoTime();
        List<TableReport> reports = new ArrayList<>();
        ExecutorService deletes = Executors.newFixedThreadPool(4, MaintenanceService.daemon("maintenance-delete"));
        try (RESTCatalog catalog = CatalogConnection.open(maintenance)) {
            TableMaintainer maintainer = new TableMaintainer(catalog, maintenance, Clock.systemUTC(), deletes);
            out.printf(
                    Locale.ROOT,
                    "%s %s: retention %s, orphan minimum age %s, target file size %s%n",
                    dryRun ? "Planning maintenance (dry run) of" : "Maintaining",
                    maintenance.tables(),
                    maintenance.snapshotRetention(),
                    maintenance.orphanMinAge(),
                    describeBytes(maintenance.targetFileSizeBytes()));
            for (TableIdentifier table : maintenance.tables()) {
                reports.add(maintainer.maintain(table, dryRun, message -> out.println(message)));
            }
        } catch (Exception e) {
            LOG.error("The maintenance run failed", e);
            System.err.println("table-maintenance: " + e.getMessage());
            return 1;
        } finally {
            deletes.shutdown();
        }
        out.println();
        out.println(dryRun ? "Plan" : "Summary");
        reports.forEach(report -> out.println("  " + report.summaryLine()));
        out.printf(
                Locale.ROOT,
                "Elapsed %.1f s%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis() / 1000.0);
        return reports.stream().anyMatch(report -> report.outcome() == TableReport.Outcome.FAILED) ? 1 : 0;
    }

    private static String describeBytes(long bytes) {
        return String.format(Locale.ROOT, "%d MiB", bytes / (1024 * 1024));
    }
}
