package io.fleetlake.common.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Optional;

/**
 * How a component reaches the S3-compatible storage under the catalog's tables: keys {@code <component>.s3-endpoint},
 * {@code <component>.s3-access-key}, {@code <component>.s3-secret-key}, {@code <component>.s3-region} (default
 * {@value #DEFAULT_REGION}) and {@code <component>.s3-path-style-access} (default {@code true}). The one parser of
 * these keys, so that every component reads them the same way; checks that depend on the component (an endpoint
 * required or not, both keys or none) stay with the component's config, whose messages name its keys.
 *
 * @param endpoint the S3 endpoint, when clients reach the storage under another address than the default
 * @param accessKey the access key id
 * @param secretKey the secret access key; never logged (see {@link #toString()})
 * @param region the signing region
 * @param pathStyleAccess whether buckets are addressed by path rather than by host name
 */
public record S3StorageConfig(
        Optional<URI> endpoint,
        Optional<String> accessKey,
        Optional<String> secretKey,
        String region,
        boolean pathStyleAccess) {
    public static final String DEFAULT_REGION = "us-east-1";

    public S3StorageConfig {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(accessKey, "accessKey is null");
        requireNonNull(secretKey, "secretKey is null");
        requireNonNull(region, "region is null");
    }

    /** The storage settings of {@code component}, such as {@code catalog} for {@code catalog.s3-endpoint}. */
    public static S3StorageConfig from(ConfigSource source, String component) {
        requireNonNull(source, "source is null");
        requireNonNull(component, "component is null");
        String endpointKey = component + ".s3-endpoint";
        return new S3StorageConfig(
                source.string(endpointKey).map(present -> source.uri(endpointKey, null)),
                source.string(component + ".s3-access-key"),
                source.string(component + ".s3-secret-key"),
                source.string(component + ".s3-region", DEFAULT_REGION),
                source.bool(component + ".s3-path-style-access", true));
    }

    /**
     * The settings as the components' {@code toString} write them, the secret key redacted: {@code s3Endpoint=...,
     * s3AccessKey=..., s3SecretKey=****, s3Region=..., s3PathStyleAccess=...}.
     */
    public String describe() {
        return "s3Endpoint=" + endpoint.map(URI::toString).orElse("") + ", s3AccessKey=" + accessKey.orElse("")
                + ", s3SecretKey=" + secretKey.map(value -> "****").orElse("") + ", s3Region=" + region
                + ", s3PathStyleAccess=" + pathStyleAccess;
    }

    @Override
    public String toString() {
        return "S3StorageConfig{" + describe() + "}";
    }
}
