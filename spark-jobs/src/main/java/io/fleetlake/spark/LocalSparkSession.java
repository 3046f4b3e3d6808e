package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * Builds the local {@link SparkSession} of a fleet job: Spark in local mode bound to the loopback interface, without
 * its web UI, in UTC, with the fleet's Iceberg REST catalog registered as the Spark catalog {@value #CATALOG}.
 *
 * <p>Tables are named with three parts, {@code fleet.fleet.positions}: Spark reads the first part of a name as a
 * catalog when a catalog has that name, so {@code fleet.positions} would be the table {@code positions} in the
 * catalog's default namespace.
 */
public final class LocalSparkSession {
    /** The name of the Iceberg catalog in Spark. */
    public static final String CATALOG = "fleet";

    /**
     * A day of a fleet is a few hundred thousand rows at most; Spark's default of 200 shuffle partitions would make 200
     * tiny tasks per shuffle.
     */
    public static final int SHUFFLE_PARTITIONS = 4;

    public static final String APPLICATION_NAME = "fleet-daily-summary";

    private static final String LOOPBACK = "127.0.0.1";
    private static final String CATALOG_PREFIX = "spark.sql.catalog." + CATALOG;

    private LocalSparkSession() {}

    /** Every Spark setting of the daily summary job: the session settings and the catalog settings. */
    public static Map<String, String> settings(DailySummaryConfig config) {
        requireNonNull(config, "config is null");
        return settings(config.catalog(), APPLICATION_NAME);
    }

    /** Every Spark setting of a job: the session settings under the application name, and the catalog settings. */
    public static Map<String, String> settings(SparkCatalogConfig config, String applicationName) {
        requireNonNull(config, "config is null");
        Map<String, String> settings = new LinkedHashMap<>(sessionSettings(config.master()));
        settings.put("spark.app.name", requireNonNull(applicationName, "applicationName is null"));
        settings.putAll(catalogSettings(config));
        return settings;
    }

    /** Starts a session with the given settings; the caller closes it. */
    public static SparkSession start(Map<String, String> settings) {
        requireNonNull(settings, "settings is null");
        SparkSession.Builder builder = SparkSession.builder();
        settings.forEach(builder::config);
        return builder.getOrCreate();
    }

    /** Local mode on the loopback interface, no web UI, UTC, few shuffle partitions. */
    public static Map<String, String> sessionSettings(String master) {
        requireNonNull(master, "master is null");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.master", master);
        settings.put("spark.app.name", APPLICATION_NAME);
        settings.put("spark.ui.enabled", "false");
        settings.put("spark.driver.host", LOOPBACK);
        settings.put("spark.driver.bindAddress", LOOPBACK);
        settings.put("spark.sql.shuffle.partitions", String.valueOf(SHUFFLE_PARTITIONS));
        settings.put("spark.sql.session.timeZone", "UTC");
        return settings;
    }

    /** The fleet's Iceberg REST catalog with S3FileIO, as the Spark catalog {@value #CATALOG}. */
    static Map<String, String> catalogSettings(DailySummaryConfig config) {
        requireNonNull(config, "config is null");
        return catalogSettings(config.catalog());
    }

    /** The fleet's Iceberg REST catalog with S3FileIO, as the Spark catalog {@value #CATALOG}. */
    static Map<String, String> catalogSettings(SparkCatalogConfig config) {
        requireNonNull(config, "config is null");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(CATALOG_PREFIX, "org.apache.iceberg.spark.SparkCatalog");
        settings.put(CATALOG_PREFIX + ".type", "rest");
        // The client's properties as the pipeline and the maintenance give them, under the catalog's prefix.
        config.catalogClient().toMap().forEach((key, value) -> settings.put(CATALOG_PREFIX + "." + key, value));
        return settings;
    }
}
