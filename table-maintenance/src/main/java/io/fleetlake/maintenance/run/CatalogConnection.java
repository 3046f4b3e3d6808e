package io.fleetlake.maintenance.run;

import io.fleetlake.maintenance.MaintenanceConfig;
import io.fleetlake.model.catalog.CatalogAuthentication;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
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
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(CatalogProperties.URI, config.catalogUri().toString());
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, config.warehouse());
        properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
        config.s3Endpoint().ifPresent(endpoint -> properties.put(S3FileIOProperties.ENDPOINT, endpoint.toString()));
        properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, Boolean.toString(config.s3PathStyleAccess()));
        config.s3AccessKey().ifPresent(key -> properties.put(S3FileIOProperties.ACCESS_KEY_ID, key));
        config.s3SecretKey().ifPresent(secret -> properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, secret));
        properties.put(AwsClientProperties.CLIENT_REGION, config.s3Region());
        config.catalogCredential()
                .ifPresent(credential -> properties.putAll(CatalogAuthentication.clientProperties(
                        config.catalogUri().toString(), credential)));
        return properties;
    }
}
