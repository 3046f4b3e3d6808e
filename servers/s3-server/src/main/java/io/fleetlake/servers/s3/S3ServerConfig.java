package io.fleetlake.servers.s3;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Configuration of the S3-compatible server (S3Proxy over a directory of the local file system).
 *
 * @param host address the HTTP listener binds to
 * @param port HTTP port; 0 picks a free one
 * @param dataDirectory directory holding one sub-directory per bucket; kept across restarts
 * @param accessKey access key id clients sign requests with
 * @param secretKey secret access key clients sign requests with; redacted in {@link #toString()}
 * @param region region clients sign requests for (S3Proxy accepts any region; clients must agree on one)
 * @param buckets buckets created at start when absent
 */
public record S3ServerConfig(
        String host,
        int port,
        Path dataDirectory,
        String accessKey,
        String secretKey,
        String region,
        List<String> buckets) {
    public static final String HOST = "s3.host";
    public static final String PORT = "s3.port";
    public static final String DATA_DIRECTORY = "s3.data-dir";
    public static final String ACCESS_KEY = "s3.access-key";
    public static final String SECRET_KEY = "s3.secret-key";
    public static final String REGION = "s3.region";
    public static final String BUCKETS = "s3.buckets";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9000;
    public static final String DEFAULT_REGION = "us-east-1";
    public static final String DEFAULT_BUCKETS = "warehouse";

    /** S3 bucket naming rules: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending alphanumeric. */
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9-]+");

    public S3ServerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(accessKey, "accessKey is null");
        requireNonNull(secretKey, "secretKey is null");
        requireNonNull(region, "region is null");
        buckets = List.copyOf(requireNonNull(buckets, "buckets is null"));
        if (host.isBlank()) {
            throw new ConfigException(HOST + " is empty: set the address to listen on, such as 127.0.0.1");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(PORT + " = " + port + " must be between 0 (any free port) and 65535");
        }
        if (accessKey.isBlank() || secretKey.isBlank()) {
            throw new ConfigException("Both " + ACCESS_KEY + " and " + SECRET_KEY
                    + " must be set: the server only accepts requests signed with them, and has no default keys"
                    + " (the embedded stack generates them once per data folder)");
        }
        if (!REGION_NAME.matcher(region).matches()) {
            throw new ConfigException(REGION + " = '" + region
                    + "' is not a region name: use lower-case letters, digits and hyphens," + " such as us-east-1");
        }
        for (String bucket : buckets) {
            if (!BUCKET_NAME.matcher(bucket).matches() || bucket.contains("..")) {
                throw new ConfigException(BUCKETS + " contains '" + bucket + "', which is not a valid bucket name:"
                        + " use 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a"
                        + " letter or digit");
            }
        }
        if (new HashSet<>(buckets).size() != buckets.size()) {
            throw new ConfigException(BUCKETS + " = " + buckets + " names a bucket twice: list each bucket once");
        }
    }

    /** Reads the {@code s3.*} keys; {@value #DATA_DIRECTORY}, {@value #ACCESS_KEY} and {@value #SECRET_KEY} are required. */
    public static S3ServerConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new S3ServerConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                Path.of(source.requiredString(DATA_DIRECTORY)),
                source.string(ACCESS_KEY, ""),
                source.string(SECRET_KEY, ""),
                source.string(REGION, DEFAULT_REGION),
                parseList(source.string(BUCKETS, DEFAULT_BUCKETS)));
    }

    private static List<String> parseList(String value) {
        return Arrays.stream(value.split(","))
                .map(String::strip)
                .filter(item -> !item.isEmpty())
                .toList();
    }

    @Override
    public String toString() {
        return "S3ServerConfig[host=" + host + ", port=" + port + ", dataDirectory=" + dataDirectory + ", accessKey="
                + accessKey + ", secretKey=***, region=" + region + ", buckets=" + buckets + "]";
    }
}
