package io.fleetlake.maintenance.run;

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
        return new CatalogClientProperties(
                        config.catalogUri().toString(),
                        config.warehouse(),
                        config.s3Endpoint().map(URI::toString),
                        config.s3PathStyleAccess(),
                        config.s3AccessKey(),
                        config.s3SecretKey(),
                        config.s3Region(),
                        config.catalogCredential())
                .toMap();
    }
}
