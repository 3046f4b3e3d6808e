package io.fleetlake.spark.geocode;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.geocoding.ReverseGeocoder;
import io.fleetlake.model.Tables;
import io.fleetlake.spark.LocalSparkSession;
import java.io.PrintStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Names the positions of fleet.positions after their nearest place with Spark in local mode, then exits. */
@Command(
        name = "geocode",
        mixinStandardHelpOptions = true,
        description = "Reverse geocodes the positions of the Iceberg table fleet.positions committed since the last"
                + " run (offline, with the gazetteer bundled at build time) and merges each position's nearest place"
                + " into fleet.position_places, with Spark in local mode. Configuration keys: spark.*, geocode.*")
public final class GeocodeMain implements Callable<Integer> {
    static final String APPLICATION_NAME = "fleet-geocode";

    private static final Logger LOG = LoggerFactory.getLogger(GeocodeMain.class);

    @Option(
            names = "--full",
            description = "Reread every position of the current snapshot instead of the snapshots since the last run"
                    + " (wins over " + GeocodeConfig.FULL + ").")
    private boolean full;

    @Option(
            names = "--since",
            paramLabel = "INSTANT|DURATION",
            description = "Also reread the snapshots committed since then: 2026-11-28T06:00:00Z, or 6h, 2d back from"
                    + " now (wins over " + GeocodeConfig.SINCE + ").")
    private String since;

    @Mixin
    private ConfigOptions config;

    public static void main(String[] args) {
        // Spark can leave non-daemon threads behind: the process must exit explicitly, also after a failure.
        System.exit(new CommandLine(new GeocodeMain()).execute(args));
    }

    /** The Spark settings of the job: local mode, the fleet catalog, Iceberg's SQL extensions (MERGE on a branch). */
    public static Map<String, String> sparkSettings(GeocodeConfig config) {
        Map<String, String> settings =
                new LinkedHashMap<>(LocalSparkSession.settings(config.catalog(), APPLICATION_NAME));
        settings.put("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
        // The job commits to the places table outside Spark; a cached table object would not see those commits.
        settings.put("spark.sql.catalog." + LocalSparkSession.CATALOG + ".cache-enabled", "false");
        return settings;
    }

    @Override
    public Integer call() {
        Clock clock = Clock.systemUTC();
        GeocodeConfig geocodeConfig;
        try {
            ConfigSource source = config.load();
            Map<String, String> overrides = new LinkedHashMap<>();
            if (full) {
                overrides.put(GeocodeConfig.FULL, "true");
            }
            if (since != null) {
                overrides.put(GeocodeConfig.SINCE, since);
            }
            geocodeConfig = GeocodeConfig.from(source.withOverrides(overrides, "command line"), clock);
        } catch (ConfigException e) {
            LOG.error("Geocoding cannot start: {}", e.getMessage());
            return 1;
        }
        try {
            LOG.info("Geocoding with {}", geocodeConfig);
            ReverseGeocoder geocoder = ReverseGeocoder.bundled(geocodeConfig.maxDistanceKm());
            LOG.info(
                    "Gazetteer {}: {} places ({})",
                    geocoder.gazetteer().version(),
                    geocoder.gazetteer().places().size(),
                    geocoder.gazetteer().licence());
            try (SparkSession spark = LocalSparkSession.start(sparkSettings(geocodeConfig))) {
                GeocodeResult result =
                        new GeocodeJob(spark, geocoder, clock).run(geocodeConfig.full(), geocodeConfig.since());
                printSummary(result, geocodeConfig, System.out);
            }
            return 0;
        } catch (Exception e) {
            // Spark throws checked exceptions (AnalysisException) without declaring them.
            LOG.error("Geocoding failed: {}", e.getMessage(), e);
            return 1;
        }
    }

    static void printSummary(GeocodeResult result, GeocodeConfig config, PrintStream out) {
        GeocodePlan plan = result.plan();
        out.println();
        out.println("Reverse geocoding of " + Tables.qualified(Tables.POSITIONS) + " into "
                + Tables.qualified(Tables.POSITION_PLACES));
        out.println("-".repeat(72));
        row(out, "Mode", plan.mode() + " (" + plan.reason() + ")");
        row(out, "New snapshots processed", number(plan.newSnapshots()) + " (" + plan.appendSnapshots() + " appends)");
        row(
                out,
                "Positions geocoded",
                number(result.positionsRead()) + " (" + number(result.positionsNamed()) + " named, "
                        + number(result.positionsRead() - result.positionsNamed()) + " with no place within "
                        + number(config.maxDistanceKm()) + " km)");
        row(out, "Rows written", number(result.rowsWritten()));
        row(
                out,
                "Elapsed",
                String.format(Locale.ROOT, "%.1f s", result.elapsed().toMillis() / 1000.0));
        double rate = result.rowsPerSecond();
        row(out, "Rows per second", rate < 100 ? String.format(Locale.ROOT, "%.1f", rate) : number(Math.round(rate)));
        plan.toInclusive()
                .ifPresent(snapshot -> row(
                        out, "Processed up to", "snapshot " + snapshot + " of " + Tables.qualified(Tables.POSITIONS)));
    }

    private static void row(PrintStream out, String label, String value) {
        out.printf(Locale.ROOT, "%-26s%s%n", label, value);
    }

    private static String number(double value) {
        return value == Math.rint(value)
                ? String.format(Locale.ROOT, "%,d", (long) value)
                : String.format(Locale.ROOT, "%,.1f", value);
    }
}
