package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.S3StorageConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.jdbc.JdbcCatalog;

/** Opens the Iceberg {@link JdbcCatalog} that stores the catalog's namespaces and table pointers. */
final class JdbcCatalogFactory {
    /**
     * Name under which tables are recorded in the catalog database. Changing it hides every table already registered,
     * so it is fixed rather than configurable.
     */
    static final String CATALOG_NAME = "fleet";

    /**
     * SQLite allows one writer at a time; with one connection every catalog operation of this process queues for it
     * in the pool instead of failing with SQLITE_BUSY.
     */
    static final int SQLITE_CONNECTIONS = 1;

    /** How long SQLite waits for a lock held by another process (for example a backup) before failing. */
    static final int SQLITE_BUSY_TIMEOUT_MILLIS = 10_000;

    private JdbcCatalogFactory() {}

    static JdbcCatalog open(CatalogServerConfig config) {
        JdbcCatalog catalog = new JdbcCatalog();
        catalog.initialize(CATALOG_NAME, catalogProperties(config));
        return catalog;
    }

    static Map<String, String> catalogProperties(CatalogServerConfig config) {
        requireNonNull(config, "config is null");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, config.jdbcUrl());
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, config.warehouse());
        properties.put(CatalogProperties.FILE_IO_IMPL, config.ioImplementation());
        // V1 is the schema that can also hold views; new catalogs start with it instead of upgrading later.
        properties.put(JdbcCatalog.PROPERTY_PREFIX + "schema-version", "V1");
        // Without strict mode a table can be created in a namespace that was never created.
        properties.put(JdbcCatalog.PROPERTY_PREFIX + "strict-mode", "true");
        config.jdbcUser().ifPresent(user -> properties.put(JdbcCatalog.PROPERTY_PREFIX + "user", user));
        config.jdbcPassword().ifPresent(password -> properties.put(JdbcCatalog.PROPERTY_PREFIX + "password", password));
        if (config.usesSqlite()) {
            properties.put(CatalogProperties.CLIENT_POOL_SIZE, String.valueOf(SQLITE_CONNECTIONS));
            properties.put(JdbcCatalog.PROPERTY_PREFIX + "busy_timeout", String.valueOf(SQLITE_BUSY_TIMEOUT_MILLIS));
        }
        if (config.usesS3FileIo()) {
            properties.putAll(storageLocationProperties(config));
            S3StorageConfig storage = config.s3Storage();
            storage.accessKey().ifPresent(key -> properties.put(S3FileIOProperties.ACCESS_KEY_ID, key));
            storage.secretKey().ifPresent(key -> properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, key));
        }
        return properties;
    }

    /** Where S3FileIO finds the storage: endpoint, addressing style and region, without credentials. */
    static Map<String, String> storageLocationProperties(CatalogServerConfig config) {
        S3StorageConfig storage = config.s3Storage();
        Map<String, String> properties = new LinkedHashMap<>();
        storage.endpoint().ifPresent(endpoint -> properties.put(S3FileIOProperties.ENDPOINT, endpoint.toString()));
        properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, String.valueOf(storage.pathStyleAccess()));
        properties.put(AwsClientProperties.CLIENT_REGION, storage.region());
        return properties;
    }
}
