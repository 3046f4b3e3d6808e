package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogCredential;
import java.net.URI;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Configuration of the daily fleet summary job: where the Iceberg REST catalog and its S3-compatible storage are, which
 * day to summarise and the local Spark master.
 *
 * @param catalogUri base URI of the Iceberg REST catalog
 * @param warehouse warehouse location the catalog serves
 * @param s3Endpoint endpoint of the S3-compatible storage
 * @param s3AccessKey access key, or empty to use the AWS default credential chain
 * @param s3SecretKey secret key, or empty to use the AWS default credential chain
 * @param s3Region region sent to the storage
 * @param date the UTC day to summarise
 * @param master Spark master; local mode only
 * @param catalogCredential the job's client credentials for the catalog, empty without authentication
 */
public record DailySummaryConfig(
        URI catalogUri,
        String warehouse,
        URI s3Endpoint,
        Optional<String> s3AccessKey,
        Optional<String> s3SecretKey,
        String s3Region,
        LocalDate date,
        String master,
        Optional<CatalogCredential> catalogCredential) {
    public static final String CATALOG_URI = SparkCatalogConfig.CATALOG_URI;
    public static final String WAREHOUSE = SparkCatalogConfig.WAREHOUSE;
    public static final String S3_ENDPOINT = SparkCatalogConfig.S3_ENDPOINT;
    public static final String S3_ACCESS_KEY = SparkCatalogConfig.S3_ACCESS_KEY;
    public static final String S3_SECRET_KEY = SparkCatalogConfig.S3_SECRET_KEY;
    public static final String S3_REGION = SparkCatalogConfig.S3_REGION;
    public static final String DATE = "spark.date";
    public static final String MASTER = SparkCatalogConfig.MASTER;

    public static final URI DEFAULT_CATALOG_URI = SparkCatalogConfig.DEFAULT_CATALOG_URI;
    public static final String DEFAULT_WAREHOUSE = SparkCatalogConfig.DEFAULT_WAREHOUSE;
    public static final URI DEFAULT_S3_ENDPOINT = SparkCatalogConfig.DEFAULT_S3_ENDPOINT;
    public static final String DEFAULT_S3_REGION = SparkCatalogConfig.DEFAULT_S3_REGION;
    public static final String DEFAULT_MASTER = SparkCatalogConfig.DEFAULT_MASTER;

    public DailySummaryConfig {
        requireNonNull(date, "date is null");
        // Validates the catalog, storage and master settings.
        new SparkCatalogConfig(
                catalogUri, warehouse, s3Endpoint, s3AccessKey, s3SecretKey, s3Region, master, catalogCredential);
    }

    /** Settings without a catalog credential. */
    public DailySummaryConfig(
            URI catalogUri,
            String warehouse,
            URI s3Endpoint,
            Optional<String> s3AccessKey,
            Optional<String> s3SecretKey,
            String s3Region,
            LocalDate date,
            String master) {
        this(catalogUri, warehouse, s3Endpoint, s3AccessKey, s3SecretKey, s3Region, date, master, Optional.empty());
    }

    /**
     * Reads and validates every {@code spark.*} key; all have defaults.
     *
     * @param clock gives the default {@value #DATE}: the day before today in UTC
     */
    public static DailySummaryConfig from(ConfigSource source, Clock clock) {
        requireNonNull(source, "source is null");
        requireNonNull(clock, "clock is null");
        SparkCatalogConfig catalog = SparkCatalogConfig.from(source);
        return new DailySummaryConfig(
                catalog.catalogUri(),
                catalog.warehouse(),
                catalog.s3Endpoint(),
                catalog.s3AccessKey(),
                catalog.s3SecretKey(),
                catalog.s3Region(),
                source.string(DATE).map(DailySummaryConfig::parseDate).orElseGet(() -> yesterday(clock)),
                catalog.master(),
                catalog.catalogCredential());
    }

    /** The catalog, storage and master settings. */
    public SparkCatalogConfig catalog() {
        return new SparkCatalogConfig(
                catalogUri, warehouse, s3Endpoint, s3AccessKey, s3SecretKey, s3Region, master, catalogCredential);
    }

    /** The day before the clock's current day in UTC: the last complete day. */
    public static LocalDate yesterday(Clock clock) {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(1);
    }

    private static LocalDate parseDate(String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    "Invalid configuration " + DATE + " = '" + value + "': expected a day such as 2026-11-28", e);
        }
    }

    @Override
    public String toString() {
        return "DailySummaryConfig{" + catalog() + ", date=" + date + "}";
    }
}
