package io.fleetlake.maintenance;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.S3StorageConfig;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogCredential;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Configuration of the table maintenance service, read once from a {@link ConfigSource} (keys {@code maintenance.*})
 * and validated when built. Every default is documented in the module README and pinned by a test.
 */
public final class MaintenanceConfig {
    public static final String CATALOG_URI = "maintenance.catalog-uri";
    public static final String CATALOG_CREDENTIAL = "maintenance.catalog-credential";
    public static final String WAREHOUSE = "maintenance.warehouse";
    public static final String S3_ENDPOINT = "maintenance.s3-endpoint";
    public static final String S3_ACCESS_KEY = "maintenance.s3-access-key";
    public static final String S3_SECRET_KEY = "maintenance.s3-secret-key";
    public static final String S3_REGION = "maintenance.s3-region";
    public static final String S3_PATH_STYLE_ACCESS = "maintenance.s3-path-style-access";
    public static final String TABLES = "maintenance.tables";
    public static final String INTERVAL = "maintenance.interval";
    public static final String INITIAL_DELAY = "maintenance.initial-delay";
    public static final String TARGET_FILE_SIZE = "maintenance.target-file-size-bytes";
    public static final String MIN_INPUT_FILES = "maintenance.min-input-files";
    public static final String DELETE_FILE_THRESHOLD = "maintenance.delete-file-threshold";
    public static final String SNAPSHOT_RETENTION = "maintenance.snapshot-retention";
    public static final String RETAIN_LAST = "maintenance.retain-last";
    public static final String ORPHAN_MIN_AGE = "maintenance.orphan-min-age";
    public static final String MANIFEST_REWRITE_MIN_COUNT = "maintenance.manifest-rewrite-min-count";
    public static final String COMMIT_ATTEMPTS = "maintenance.commit-attempts";
    public static final String METRICS_HOST = "maintenance.metrics-host";
    public static final String METRICS_PORT = "maintenance.metrics-port";

    public static final List<TableIdentifier> DEFAULT_TABLES = List.of(
            TableIdentifier.of(Tables.NAMESPACE, Tables.POSITIONS),
            TableIdentifier.of(Tables.NAMESPACE, Tables.REJECTED_POSITIONS),
            TableIdentifier.of(Tables.NAMESPACE, Tables.VEHICLE_MINUTES));
    public static final String DEFAULT_WAREHOUSE = "s3://warehouse/";
    public static final String DEFAULT_S3_REGION = S3StorageConfig.DEFAULT_REGION;
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(30);
    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMinutes(1);
    /** A day of one bucket of {@code fleet.positions} for the default fleet is about 20 MB: one file per partition. */
    public static final long DEFAULT_TARGET_FILE_SIZE = 128L * 1024 * 1024;
    /** Iceberg's default: a partition is compacted once it has this many files outside the target size range. */
    public static final int DEFAULT_MIN_INPUT_FILES = 5;
    /** A data file with this many delete files applying to it is rewritten (its deletes applied) whatever its size. */
    public static final int DEFAULT_DELETE_FILE_THRESHOLD = 10;

    public static final Duration DEFAULT_SNAPSHOT_RETENTION = Duration.ofDays(7);
    public static final int DEFAULT_RETAIN_LAST = 1;
    /**
     * Iceberg's own default for orphan removal. A file younger than this is never deleted: the pipeline writes its data
     * files before the checkpoint that commits them, and after a failure it commits them when it restores that
     * checkpoint, which can be days later if it stays down. See the README.
     */
    public static final Duration DEFAULT_ORPHAN_MIN_AGE = Duration.ofDays(3);
    /** Iceberg merges manifests itself at 100 per commit; rewriting clusters them by partition before that. */
    public static final int DEFAULT_MANIFEST_REWRITE_MIN_COUNT = 20;

    public static final int DEFAULT_COMMIT_ATTEMPTS = 5;
    public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
    public static final int DEFAULT_METRICS_PORT = 9464;

    private static final String REDACTED = "****";

    private final URI catalogUri;
    private final Optional<CatalogCredential> catalogCredential;
    private final String warehouse;
    private final S3StorageConfig s3Storage;
    private final List<TableIdentifier> tables;
    private final Duration interval;
    private final Duration initialDelay;
    private final long targetFileSizeBytes;
    private final int minInputFiles;
    private final int deleteFileThreshold;
    private final Duration snapshotRetention;
    private final int retainLast;
    private final Duration orphanMinAge;
    private final int manifestRewriteMinCount;
    private final int commitAttempts;
    private final String metricsHost;
    private final int metricsPort;

    private MaintenanceConfig(ConfigSource source) {
        this.catalogUri = source.uri(CATALOG_URI, null);
        if (catalogUri == null) {
            throw new ConfigException("Missing required configuration " + CATALOG_URI
                    + ": the Iceberg REST catalog, such as http://127.0.0.1:8181 (environment variable "
                    + ConfigSource.environmentName(CATALOG_URI) + ")");
        }
        this.catalogCredential =
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value));
        this.warehouse = source.string(WAREHOUSE, DEFAULT_WAREHOUSE);
        this.s3Storage = S3StorageConfig.from(source, "maintenance");
        this.tables = source.string(TABLES).map(MaintenanceConfig::tables).orElse(DEFAULT_TABLES);
        this.interval = source.duration(INTERVAL, DEFAULT_INTERVAL);
        this.initialDelay = source.duration(INITIAL_DELAY, DEFAULT_INITIAL_DELAY);
        this.targetFileSizeBytes = source.longValue(TARGET_FILE_SIZE, DEFAULT_TARGET_FILE_SIZE);
        this.minInputFiles = source.integer(MIN_INPUT_FILES, DEFAULT_MIN_INPUT_FILES);
        this.deleteFileThreshold = source.integer(DELETE_FILE_THRESHOLD, DEFAULT_DELETE_FILE_THRESHOLD);
        this.snapshotRetention = source.duration(SNAPSHOT_RETENTION, DEFAULT_SNAPSHOT_RETENTION);
        this.retainLast = source.integer(RETAIN_LAST, DEFAULT_RETAIN_LAST);
        this.orphanMinAge = source.duration(ORPHAN_MIN_AGE, DEFAULT_ORPHAN_MIN_AGE);
        this.manifestRewriteMinCount = source.integer(MANIFEST_REWRITE_MIN_COUNT, DEFAULT_MANIFEST_REWRITE_MIN_COUNT);
        this.commitAttempts = source.integer(COMMIT_ATTEMPTS, DEFAULT_COMMIT_ATTEMPTS);
        this.metricsHost = source.string(METRICS_HOST, DEFAULT_METRICS_HOST);
        this.metricsPort = source.port(METRICS_PORT, DEFAULT_METRICS_PORT);
        validate();
    }

    /**
     * Reads and validates the {@code maintenance.*} keys.
     *
     * @throws ConfigException when a value is missing or invalid; the message names the key and what to set
     */
    public static MaintenanceConfig from(ConfigSource source) {
        return new MaintenanceConfig(requireNonNull(source, "source is null"));
    }

    private static List<TableIdentifier> tables(String value) {
        List<String> names = Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(name -> !name.isEmpty())
                .toList();
        if (names.isEmpty()) {
            throw new ConfigException(TABLES + " = '" + value + "' names no table: list namespace.table names separated"
                    + " by commas, such as fleet.positions,fleet.vehicle_minutes");
        }
        return names.stream()
                .map(name -> {
                    if (!name.contains(".") || name.startsWith(".") || name.endsWith(".")) {
                        throw new ConfigException(
                                TABLES + ": '" + name + "' is not a namespace.table name such as fleet.positions");
                    }
                    return TableIdentifier.parse(name);
                })
                .distinct()
                .toList();
    }

    private void validate() {
        String scheme = Optional.ofNullable(catalogUri.getScheme()).orElse("");
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ConfigException(CATALOG_URI + " = '" + catalogUri
                    + "' must be an http:// or https:// URL, such as http://127.0.0.1:8181");
        }
        if (s3Storage.accessKey().isPresent() != s3Storage.secretKey().isPresent()) {
            throw new ConfigException("Set both " + S3_ACCESS_KEY + " and " + S3_SECRET_KEY
                    + ", or neither to use the AWS default credential chain");
        }
        positive(INTERVAL, interval);
        if (initialDelay.isNegative()) {
            throw new ConfigException(INITIAL_DELAY + " must not be negative, got " + initialDelay);
        }
        if (targetFileSizeBytes < 1024 * 1024) {
            throw new ConfigException(
                    TARGET_FILE_SIZE + " must be at least 1 MiB (1048576), got " + targetFileSizeBytes);
        }
        atLeast(MIN_INPUT_FILES, minInputFiles, 2);
        atLeast(DELETE_FILE_THRESHOLD, deleteFileThreshold, 1);
        positive(SNAPSHOT_RETENTION, snapshotRetention);
        atLeast(RETAIN_LAST, retainLast, 1);
        positive(ORPHAN_MIN_AGE, orphanMinAge);
        atLeast(MANIFEST_REWRITE_MIN_COUNT, manifestRewriteMinCount, 2);
        atLeast(COMMIT_ATTEMPTS, commitAttempts, 1);
        if (metricsHost.isBlank()) {
            throw new ConfigException(METRICS_HOST + " must not be blank: use a loopback address such as 127.0.0.1");
        }
    }

    private static void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " must be longer than zero, got " + value);
        }
    }

    private static void atLeast(String key, int value, int minimum) {
        if (value < minimum) {
            throw new ConfigException(key + " must be at least " + minimum + ", got " + value);
        }
    }

    public URI catalogUri() {
        return catalogUri;
    }

    public String warehouse() {
        return warehouse;
    }

    /**
     * How the maintenance reaches the storage under the tables (the {@code maintenance.s3-*} keys); its endpoint is
     * set when clients reach the storage under another address than the catalog announces.
     */
    public S3StorageConfig s3Storage() {
        return s3Storage;
    }

    /** The maintenance's OAuth2 client credentials for the catalog (a maintainer's); empty without authentication. */
    public Optional<CatalogCredential> catalogCredential() {
        return catalogCredential;
    }

    /** The tables maintained, in order. */
    public List<TableIdentifier> tables() {
        return tables;
    }

    /** Time between the end of one maintenance run over every table and the start of the next. */
    public Duration interval() {
        return interval;
    }

    /** Time from the service's start to its first run. */
    public Duration initialDelay() {
        return initialDelay;
    }

    public long targetFileSizeBytes() {
        return targetFileSizeBytes;
    }

    public int minInputFiles() {
        return minInputFiles;
    }

    public int deleteFileThreshold() {
        return deleteFileThreshold;
    }

    /** Snapshots younger than this are kept; older ones expire unless a tag or the last few keep them. */
    public Duration snapshotRetention() {
        return snapshotRetention;
    }

    /** The newest snapshots of each branch kept whatever their age. */
    public int retainLast() {
        return retainLast;
    }

    public Duration orphanMinAge() {
        return orphanMinAge;
    }

    public int manifestRewriteMinCount() {
        return manifestRewriteMinCount;
    }

    /** Attempts of one maintenance step whose commit conflicts with the streaming writer's commits. */
    public int commitAttempts() {
        return commitAttempts;
    }

    public String metricsHost() {
        return metricsHost;
    }

    /** Port of the Prometheus endpoint of the service; 0 picks a free one. */
    public int metricsPort() {
        return metricsPort;
    }

    @Override
    public String toString() {
        return "MaintenanceConfig{catalogUri=" + catalogUri + ", catalogCredential="
                + catalogCredential.map(CatalogCredential::clientId).orElse("") + ", warehouse=" + warehouse
                + ", " + s3Storage.describe() + ", tables=" + tables + ", interval=" + interval
                + ", initialDelay=" + initialDelay + ", targetFileSizeBytes=" + targetFileSizeBytes
                + ", minInputFiles=" + minInputFiles + ", deleteFileThreshold=" + deleteFileThreshold
                + ", snapshotRetention=" + snapshotRetention + ", retainLast=" + retainLast + ", orphanMinAge="
                + orphanMinAge + ", manifestRewriteMinCount=" + manifestRewriteMinCount + ", commitAttempts="
                + commitAttempts + ", metricsHost=" + metricsHost + ", metricsPort=" + metricsPort + "}";
    }
}
