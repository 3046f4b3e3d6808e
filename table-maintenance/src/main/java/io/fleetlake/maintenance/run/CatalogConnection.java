package io.fleetlake.maintenance.run;

import io.fleetlake.common.config.S3StorageConfig;
import io.fleetlake.maintenance.MaintenanceConfig;
import io.fleetlake.model.catalog.CatalogClientProperties;
import java.net.URI;
import java.util.Map;
import org.apache.iceberg.rest.RESTCatalog;

/** The REST catalog client the maintenance works through, with S3FileIO on the S3-compatible storage. */
public final class CatalogConnection {
    private CatalogConnection() {}

    public static RESTCatalog open(MaintenanceConfig config) {
        RESTCatalog catalog = new RESTCatalog();
        catalog.initialize("fleet-maintenance", properties(config));
        return catalog;
    }

    static Map<String, String> properties(MaintenanceConfig config) {
        S3StorageConfig storage = config.s3Storage();
        return new CatalogClientProperties(
                        config.catalogUri().toString(),
                        config.warehouse(),
                        storage.endpoint().map(URI::toString),
                        storage.pathStyleAccess(),
                        storage.accessKey(),
                        storage.secretKey(),
                        storage.region(),
                        config.catalogCredential())
                .toMap();
    }
}
