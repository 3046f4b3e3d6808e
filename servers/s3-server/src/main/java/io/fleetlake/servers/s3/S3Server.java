package io.fleetlake.servers.s3;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3-compatible HTTP server (S3Proxy) storing objects as files under the data directory, running in this JVM.
 *
 * <p>Every request must carry an AWS Signature Version 4 made with the configured access and secret key; anonymous
 * requests are refused. Configured buckets are created at start when absent; existing ones keep their objects.
 *
 * <p>S3Proxy bundles its own AWS SDK: run this server in its own process, not next to a client that uses another
 * AWS SDK version.
 */
public final class S3Server implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(S3Server.class);

    private final S3ServerConfig config;
    private S3Proxy proxy;

    public S3Server(S3ServerConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    public synchronized void start() {
        if (proxy != null) {
            throw new IllegalStateException("S3 server on " + config.host() + " is already started");
        }
        BlobStore blobStore = new FilesystemNio2BlobStore(dataDirectory());
        createMissingBuckets(blobStore);
        S3Proxy candidate = S3Proxy.builder()
                .blobStore(blobStore)
                .endpoint(URI.create("http://" + config.host() + ":" + config.port()))
                .awsAuthentication(AuthenticationType.AWS_V4, config.accessKey(), config.secretKey())
                // Clients such as Trino send headers S3Proxy does not know; without this it answers 501.
                .ignoreUnknownHeaders(true)
                .build();
        try {
            candidate.start();
        } catch (Exception e) {
            IllegalStateException failure = new IllegalStateException(
                    "S3 server failed to start on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
            try {
                candidate.stop();
            } catch (Exception stopFailure) {
                failure.addSuppressed(stopFailure);
            }
            throw failure;
        }
        proxy = candidate;
    }

    /** The bound HTTP port, which differs from the configured one when that was 0. */
    public synchronized int port() {
        if (proxy == null) {
            throw new IllegalStateException("S3 server is not started");
        }
        return proxy.getPort();
    }

    /** The endpoint URL clients use, with path-style bucket addressing. */
    public URI endpoint() {
        return URI.create("http://" + config.host() + ":" + port());
    }

    @Override
    public synchronized void close() {
        if (proxy != null) {
            LOG.info("Stopping S3 server on {}:{}", config.host(), proxy.getPort());
            try {
                proxy.stop();
            } catch (Exception e) {
                throw new IllegalStateException("S3 server did not stop cleanly: " + e.getMessage(), e);
            } finally {
                proxy = null;
            }
            LOG.info("S3 server stopped");
        }
    }

    private String dataDirectory() {
        try {
            return Files.createDirectories(config.dataDirectory()).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create " + S3ServerConfig.DATA_DIRECTORY + " directory " + config.dataDirectory()
                            + ": check the path and its permissions",
                    e);
        }
    }

    private void createMissingBuckets(BlobStore blobStore) {
        for (String bucket : config.buckets()) {
            if (blobStore.containerExists(bucket)) {
                LOG.info("Bucket {} exists; keeping its objects", bucket);
            } else {
                blobStore.createContainer(bucket);
                LOG.info("Created bucket {}", bucket);
            }
        }
    }
}
