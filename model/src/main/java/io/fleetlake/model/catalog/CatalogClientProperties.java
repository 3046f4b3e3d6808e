package io.fleetlake.model.catalog;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The properties of Iceberg's REST catalog client ({@code RESTCatalog}, Flink's catalog loader) for the fleet's
 * catalog with {@code S3FileIO} on the S3-compatible storage, and its OAuth2 login when a credential is given (see
 * {@link CatalogAuthentication}). The one place the pipeline and the maintenance build them; the keys are Iceberg's
 * ({@code CatalogProperties}, {@code S3FileIOProperties}, {@code AwsClientProperties}), written out because this
 * module does not depend on Iceberg.
 *
 * @param catalogUri the catalog's base URI
 * @param warehouse the warehouse location, such as {@code s3://warehouse/}
 * @param s3Endpoint the S3 endpoint, when clients reach the storage under another address than the default
 * @param s3PathStyleAccess whether buckets are addressed by path rather than by host name
 * @param s3AccessKey the access key id
 * @param s3SecretKey the secret access key
 * @param s3Region the signing region
 * @param credential the catalog client's credential; empty when the catalog runs without authentication
 */
public record CatalogClientProperties(
        String catalogUri,
        String warehouse,
        Optional<String> s3Endpoint,
        boolean s3PathStyleAccess,
        Optional<String> s3AccessKey,
        Optional<String> s3SecretKey,
        String s3Region,
        Optional<CatalogCredential> credential) {
    public static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

    public CatalogClientProperties {
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(s3Endpoint, "s3Endpoint is null");
        requireNonNull(s3AccessKey, "s3AccessKey is null");
        requireNonNull(s3SecretKey, "s3SecretKey is null");
        requireNonNull(s3Region, "s3Region is null");
        requireNonNull(credential, "credential is null");
    }

    /** The client's properties, in a fixed order; the keys are Iceberg's. */
    public Map<String, String> toMap() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("uri", catalogUri);
        properties.put("warehouse", warehouse);
        properties.put("io-impl", S3_FILE_IO);
        s3Endpoint.ifPresent(endpoint -> properties.put("s3.endpoint", endpoint));
        properties.put("s3.path-style-access", Boolean.toString(s3PathStyleAccess));
        s3AccessKey.ifPresent(key -> properties.put("s3.access-key-id", key));
        s3SecretKey.ifPresent(secret -> properties.put("s3.secret-access-key", secret));
        properties.put("client.region", s3Region);
        credential.ifPresent(present -> properties.putAll(CatalogAuthentication.clientProperties(catalogUri, present)));
        return properties;
    }

    /**
     * The settings as the components' {@code toString} write them, the secret key redacted and the credential by its
     * client id: {@code catalogUri=..., catalogCredential=..., warehouse=..., s3Endpoint=..., s3AccessKey=...,
     * s3SecretKey=<redacted>, s3Region=...}; an absent credential or endpoint as {@code <none>}, absent keys as
     * {@code <default chain>} (the AWS default credential chain).
     */
    public String describe() {
        return "catalogUri=" + catalogUri + ", catalogCredential="
                + credential.map(CatalogCredential::clientId).orElse("<none>") + ", warehouse=" + warehouse
                + ", s3Endpoint=" + s3Endpoint.orElse("<none>") + ", s3AccessKey="
                + s3AccessKey.orElse("<default chain>") + ", s3SecretKey="
                + s3SecretKey.map(secret -> "<redacted>").orElse("<default chain>") + ", s3Region=" + s3Region;
    }

    @Override
    public String toString() {
        // The record's own toString would print the secret key and the credential.
        return "CatalogClientProperties{catalogUri=" + catalogUri + ", warehouse=" + warehouse + ", s3Endpoint="
                + s3Endpoint.orElse("") + ", s3Region=" + s3Region + "}";
    }
}
