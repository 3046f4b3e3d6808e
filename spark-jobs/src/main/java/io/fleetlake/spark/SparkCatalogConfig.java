package io.fleetlake.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogClientProperties;
import io.fleetlake.model.catalog.CatalogCredential;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a Spark job of this module finds the fleet's tables and how Spark runs: the Iceberg REST catalog, its
 * S3-compatible storage and the local master. The {@code spark.*} keys every job of the module shares.
 *
 * @param catalogUri base URI of the Iceberg REST catalog
 * @param warehouse warehouse location the catalog serves
 * @param s3Endpoint endpoint of the S3-compatible storage
 * @param s3AccessKey access key, or empty to use the AWS default credential chain
 * @param s3SecretKey secret key, or empty to use the AWS default credential chain
 * @param s3Region region sent to the storage
 * @param master Spark master; local mode only
 * @param catalogCredential the job's OAuth2 client credentials for the catalog ({@value #CATALOG_CREDENTIAL}); empty
 *     for a catalog without authentication
 */
public record SparkCatalogConfig(
        URI catalogUri,
        String warehouse,
        URI s3Endpoint,
        Optional<String> s3AccessKey,
        Optional<String> s3SecretKey,
        String s3Region,
        String master,
        Optional<CatalogCredential> catalogCredential) {
    public static final String CATALOG_URI = "spark.catalog-uri";
    public static final String CATALOG_CREDENTIAL = "spark.catalog-credential";
    public static final String WAREHOUSE = "spark.warehouse";
    public static final String S3_ENDPOINT = "spark.s3-endpoint";
    public static final String S3_ACCESS_KEY = "spark.s3-access-key";
    public static final String S3_SECRET_KEY = "spark.s3-secret-key";
    public static final String S3_REGION = "spark.s3-region";
    public static final String MASTER = "spark.master";

    public static final URI DEFAULT_CATALOG_URI = URI.create("http://127.0.0.1:8181");
    public static final String DEFAULT_WAREHOUSE = "s3://warehouse/";
    public static final URI DEFAULT_S3_ENDPOINT = URI.create("http://127.0.0.1:9000");
    public static final String DEFAULT_S3_REGION = "us-east-1";
    public static final String DEFAULT_MASTER = "local[2]";

    private static final Set<String> HTTP_SCHEMES = Set.of("http", "https");
    // The driver binds to 127.0.0.1, so only local masters can work: local, local[N], local[*], local[N,retries].
    private static final Pattern LOCAL_MASTER = Pattern.compile("local(\\[(\\d+|\\*)(,\\d+)?])?");

    public SparkCatalogConfig {
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(s3Endpoint, "s3Endpoint is null");
        requireNonNull(s3AccessKey, "s3AccessKey is null");
        requireNonNull(s3SecretKey, "s3SecretKey is null");
        requireNonNull(s3Region, "s3Region is null");
        requireNonNull(master, "master is null");
        requireNonNull(catalogCredential, "catalogCredential is null");
        requireScheme(CATALOG_URI, catalogUri);
        requireScheme(S3_ENDPOINT, s3Endpoint);
        requireText(WAREHOUSE, warehouse);
        requireText(S3_REGION, s3Region);
        if (s3AccessKey.isPresent() != s3SecretKey.isPresent()) {
            throw new ConfigException("Set both " + S3_ACCESS_KEY + " and " + S3_SECRET_KEY
                    + ", or neither to use the AWS default credential chain");
        }
        if (!LOCAL_MASTER.matcher(master).matches()) {
            throw new ConfigException("Invalid configuration " + MASTER + " = '" + master
                    + "': expected a local master such as local[2] or local[*]; the jobs run Spark in local mode");
        }
    }

    /** Settings without a catalog credential. */
    public SparkCatalogConfig(
            URI catalogUri,
            String warehouse,
            URI s3Endpoint,
            Optional<String> s3AccessKey,
            Optional<String> s3SecretKey,
            String s3Region,
            String master) {
        this(catalogUri, warehouse, s3Endpoint, s3AccessKey, s3SecretKey, s3Region, master, Optional.empty());
    }

    /** Reads and validates the {@code spark.*} keys; all have defaults. */
    public static SparkCatalogConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new SparkCatalogConfig(
                source.uri(CATALOG_URI, DEFAULT_CATALOG_URI),
                source.string(WAREHOUSE, DEFAULT_WAREHOUSE),
                source.uri(S3_ENDPOINT, DEFAULT_S3_ENDPOINT),
                source.string(S3_ACCESS_KEY),
                source.string(S3_SECRET_KEY),
                source.string(S3_REGION, DEFAULT_S3_REGION),
                source.string(MASTER, DEFAULT_MASTER),
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value)));
    }

    @Override
    public String toString() {
        return catalogClient().describe() + ", master=" + master;
    }

    /** The Iceberg REST catalog client of the jobs, with S3FileIO on the S3-compatible storage, buckets by path. */
    public CatalogClientProperties catalogClient() {
        return new CatalogClientProperties(
                catalogUri.toString(),
                warehouse,
                Optional.of(s3Endpoint.toString()),
                true,
                s3AccessKey,
                s3SecretKey,
                s3Region,
                catalogCredential);
    }

    private static void requireText(String key, String value) {
        if (value.isBlank()) {
            throw new ConfigException("Configuration " + key + " must not be empty");
        }
    }

    private static void requireScheme(String key, URI uri) {
        if (uri.getScheme() == null || !HTTP_SCHEMES.contains(uri.getScheme()) || uri.getHost() == null) {
            throw new ConfigException("Invalid configuration " + key + " = '" + uri + "': expected a URI with a host"
                    + " and one of the schemes "
                    + HTTP_SCHEMES.stream().sorted().toList());
        }
    }
}
