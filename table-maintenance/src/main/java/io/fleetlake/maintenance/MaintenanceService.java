package io.fleetlake.maintenance;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.metrics.MaintenanceMetrics;
import io.fleetlake.maintenance.run.Progress;
import io.fleetlake.maintenance.run.TableMaintainer;
import io.fleetlake.maintenance.run.TableReport;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Continuous maintenance: every {@code maintenance.interval} (from the end of one run to the start of the next) every
 * configured table is maintained in turn, one table at a time, and the outcome recorded in the metrics, which a
 * Prometheus endpoint on {@code maintenance.metrics-host:port} serves ({@code /metrics}).
 */
public final class MaintenanceService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceService.class);

    private final MaintenanceConfig config;
    private final Catalog catalog;
    private final MaintenanceMetrics metrics;
    private final ExecutorService deletes;
    private final TableMaintainer maintainer;
    private final ScheduledExecutorService scheduler;
    private HTTPServer endpoint;

    public MaintenanceService(MaintenanceConfig config, Catalog catalog, MaintenanceMetrics metrics) {
        this.config = requireNonNull(config, "config is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.deletes = Executors.newFixedThreadPool(4, daemon("maintenance-delete"));
        this.maintainer = new TableMaintainer(catalog, config, Clock.systemUTC(), deletes);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("maintenance-scheduler"));
    }

    /** Opens the metrics endpoint and schedules the runs; returns the endpoint's port. */
    public synchronized int start() {
        if (endpoint != null) {
            throw new IllegalStateException("The maintenance service is already started");
        }
        try {
            endpoint = HTTPServer.builder()
                    .hostname(config.metricsHost())
                    .port(config.metricsPort())
                    .registry(metrics.registry().getPrometheusRegistry())
                    .buildAndStart();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot open the metrics endpoint on " + config.metricsHost() + ":" + config.metricsPort() + ": "
                            + e.getMessage(),
                    e);
        }
        scheduler.scheduleWithFixedDelay(
                this::runSafely,
                config.initialDelay().toMillis(),
                config.interval().toMillis(),
                TimeUnit.MILLISECONDS);
        LOG.info(
                "Maintaining {} every {} (first run in {}); metrics on http://{}:{}/metrics",
                config.tables(),
                config.interval(),
                config.initialDelay(),
                config.metricsHost(),
                endpoint.getPort());
        return endpoint.getPort();
    }

    /** One run over every table, recorded in the metrics. */
    public List<TableReport> runOnce() {
        List<TableReport> reports = new ArrayList<>();
        Progress log = message -> LOG.debug("{}", message);
        for (TableIdentifier table : config.tables()) {
            TableReport report = maintainer.maintain(table, false, log);
            metrics.record(report);
            reports.add(report);
        }
        return reports;
    }

    private void runSafely() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: log and keep the schedule.
            LOG.error("A maintenance run failed; the next one runs in {}", config.interval(), e);
        }
    }

    @Override
    public synchronized void close() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("A maintenance run did not stop within 30 s; exiting anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deletes.shutdownNow();
        if (endpoint != null) {
            endpoint.close();
            endpoint = null;
        }
        if (catalog instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("Closing the catalog client failed", e);
            }
        }
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
