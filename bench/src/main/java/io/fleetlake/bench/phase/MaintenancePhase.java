package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchConsole;
import io.fleetlake.bench.BenchSettings;
import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.observe.TrinoPollingConnection;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.maintenance.TableMaintenanceJob;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleet bench --maintenance}: what table maintenance does to a day of streaming commits. A table with the
 * definition of {@code fleet.positions} ({@code bench.positions_day}) gets a simulated day of the default fleet
 * ({@link SimulatedDayHistory}: 340 vehicles, a fix every 5 s, {@code --maintenance-commits} commits, 8,640 being a day
 * of 10 s checkpoints); then data files per partition, metadata size and a one-vehicle-day time-travel query through
 * Trino are measured, one maintenance run ({@code fleet maintain} with the default settings) is timed, and the same is
 * measured again.
 */
public final class MaintenancePhase {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenancePhase.class);

    public static final int DEFAULT_COMMITS = 720;
    static final TableIdentifier TABLE = TableIdentifier.of("bench", "positions_day");
    private static final int WARM_RUNS = 3;

    private final BenchStack stack;
    private final FleetHome home;
    private final BenchConsole console;
    private final int commits;

    MaintenancePhase(BenchStack stack, FleetHome home, BenchConsole console, int commits) {
        this.stack = requireNonNull(stack, "stack is null");
        this.home = requireNonNull(home, "home is null");
        this.console = requireNonNull(console, "console is null");
        if (commits < 1) {
            throw new IllegalArgumentException("--maintenance-commits must be at least 1, got " + commits);
        }
        this.commits = commits;
    }

    /** Starts a stack of its own, runs only this phase, stops the stack; returns the exit status. */
    public static int runAlone(
            BenchSettings settings, ConfigSource userConfiguration, FleetHome home, BenchConsole console, int commits) {
        BenchStack stack = BenchStack.configure(settings, userConfiguration, home);
        Thread stopOnExit = new Thread(stack::close, "bench-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        try {
            console.progress("Starting the embedded stack in %s (free ports) ...", settings.dataDirectory());
            stack.start();
            new MaintenancePhase(stack, home, console, commits).run();
            return 0;
        } catch (Exception e) {
            LOG.error("The maintenance bench failed", e);
            console.progress("The maintenance bench failed: %s", e.getMessage());
            return 1;
        } finally {
            console.progress("Stopping the stack ...");
            stack.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException e) {
                LOG.debug("The JVM is shutting down already; its hook stops the stack", e);
            }
        }
    }

    void run() throws Exception {
        StackSettings settings = stack.settings();
        SimulatedDayHistory history = new SimulatedDayHistory(
                FleetSimulatorConfig.DEFAULT_VEHICLES, FleetSimulatorConfig.DEFAULT_FIX_INTERVAL, commits);
        Instant day = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1));
        try (RESTCatalog catalog = catalog(settings)) {
            Table table = createTable(catalog);
            console.progress(
                    "Maintenance: writing a simulated day of %,d vehicles (a fix every %d s) in %,d commits into %s",
                    FleetSimulatorConfig.DEFAULT_VEHICLES,
                    FleetSimulatorConfig.DEFAULT_FIX_INTERVAL.toSeconds(),
                    commits,
                    TABLE);
            long writeStart = System.nanoTime();
            history.write(table, day, done -> {
                if (done % Math.max(1, commits / 10) == 0) {
                    console.progress("  %,d of %,d commits", done, commits);
                }
            });
            console.progress("  written in %,d s", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - writeStart));

            String vehicle = SimulatedDayHistory.vehicleId(7);
            long expectedRows = history.fixesPerVehicle();
            TableFootprint before = TableFootprint.of(table);
            Query queryBefore = timeTravel(table.currentSnapshot().snapshotId(), vehicle, day, expectedRows);
            console.progress("  before: %s", before.describe());
            console.progress("  before: time travel over one vehicle-day %s", queryBefore.describe());

            Path log = Files.createTempFile(settings.dataDirectory(), "maintain-", ".log");
            long maintainStart = System.nanoTime();
            int exitCode = new TableMaintenanceJob(settings, home)
                    .run(List.of("--table", TABLE.toString()), ProcessBuilder.Redirect.to(log.toFile()));
            long maintainMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - maintainStart);
            String output = Files.readString(log);
            if (exitCode != 0) {
                throw new IllegalStateException("fleet maintain failed (exit " + exitCode + "):\n" + output);
            }
            output.lines()
                    .filter(line -> line.contains(TABLE + " succeeded"))
                    .forEach(line -> console.progress("  maintain: %s", line.trim()));
            console.progress("  maintenance run (its own JVM, start-up included): %,d ms", maintainMillis);

            TableFootprint after = TableFootprint.of(table);
            Query queryAfter = timeTravel(table.currentSnapshot().snapshotId(), vehicle, day, expectedRows);
            console.progress("  after: %s", after.describe());
            console.progress("  after: time travel over one vehicle-day %s", queryAfter.describe());
        }
    }

    private Table createTable(RESTCatalog catalog) {
        Table template = catalog.loadTable(TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS));
        if (!catalog.namespaceExists(TABLE.namespace())) {
            catalog.createNamespace(Namespace.of(TABLE.namespace().levels()));
        }
        if (catalog.tableExists(TABLE)) {
            catalog.dropTable(TABLE, true);
        }
        return catalog.buildTable(TABLE, template.schema())
                .withPartitionSpec(template.spec())
                .withSortOrder(template.sortOrder())
                .withProperties(template.properties())
                .create();
    }

    /** The one-vehicle-day query of the time-travel phase, FOR VERSION AS OF the given snapshot: first run and warm. */
    private Query timeTravel(long snapshotId, String vehicle, Instant day, long expectedRows) throws SQLException {
        String where = " FROM " + TABLE + " FOR VERSION AS OF " + snapshotId + " WHERE vehicle_id = '" + vehicle
                + "' AND event_time >= from_unixtime(" + day.getEpochSecond() + ") AND event_time < from_unixtime("
                + day.plus(Duration.ofDays(1)).getEpochSecond() + ")";
        String aggregates = "SELECT count(*)" + where;
        String track = "SELECT event_time, latitude, longitude, speed_kmh" + where + " ORDER BY event_time";
        try (TrinoPollingConnection trino =
                new TrinoPollingConnection(stack.settings().trino(TrinoUser.MONITOR))) {
            long first = timed(trino, aggregates, track, expectedRows);
            long[] warm = new long[WARM_RUNS];
            for (int run = 0; run < WARM_RUNS; run++) {
                warm[run] = timed(trino, aggregates, track, expectedRows);
            }
            Arrays.sort(warm);
            return new Query(first, warm[WARM_RUNS / 2], expectedRows);
        }
    }

    private static long timed(TrinoPollingConnection trino, String aggregates, String track, long expectedRows)
            throws SQLException {
        long start = System.nanoTime();
        long rows = trino.single(aggregates);
        int tracked = trino.query(track, result -> result.getLong(4)).size();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (rows != expectedRows || tracked != expectedRows) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "The time-travel query saw %,d / %,d rows, not the %,d written",
                    rows,
                    tracked,
                    expectedRows));
        }
        return millis;
    }

    private static RESTCatalog catalog(StackSettings settings) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, settings.catalogUri());
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, settings.warehouse());
        properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put(S3FileIOProperties.ENDPOINT, settings.s3Endpoint());
        properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, "true");
        properties.put(S3FileIOProperties.ACCESS_KEY_ID, settings.s3AccessKey());
        properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, settings.s3SecretKey());
        properties.put(AwsClientProperties.CLIENT_REGION, settings.s3Region());
        properties.putAll(StackCatalogIdentity.of(settings).clientProperties(CatalogRole.MAINTAINER));
        RESTCatalog catalog = new RESTCatalog();
        catalog.initialize("bench-maintenance", properties);
        return catalog;
    }

    /** @param firstMillis the first run on this snapshot; {@code warmMillis} the median of the runs after it */
    private record Query(long firstMillis, long warmMillis, long rows) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "(%,d rows: count, then the track in time order): first %,d ms, warm median %,d ms",
                    rows,
                    firstMillis,
                    warmMillis);
        }
    }
}
