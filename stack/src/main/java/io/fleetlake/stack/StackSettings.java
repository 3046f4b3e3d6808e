package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.process.FreePorts;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.redis.RedisAcl;
import io.fleetlake.redis.RedisConnections;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.trino.EmbeddedTrinoSecrets;
import io.fleetlake.trino.TrinoEtc;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Settings of the embedded stack ({@code stack.*} keys) and the ports of its components. The full configuration is
 * kept too: keys of a component ({@code kafka.*}, {@code catalog.*}, {@code pipeline.*}, ...) are handed to that
 * component, so that anything a component reads can be set in the stack's configuration file.
 *
 * @param dataDirectory everything the stack stores, kept across restarts so that a restart resumes
 * @param host the address every server binds to
 * @param startTimeout how long a component may take to become healthy
 * @param kafkaPartitions partitions of the pipeline topics
 * @param s3AccessKey access key of the S3 server as configured ({@code s3.access-key}); empty for the one generated
 *     for the data folder (see {@link #s3AccessKey()})
 * @param s3SecretKey secret key of the S3 server as configured ({@code s3.secret-key}); empty for the generated one
 * @param s3Region region name clients sign requests for
 * @param warehouseBucket bucket holding the Iceberg warehouse
 * @param redisExecutable a redis-server binary to use instead of the one bundled with embedded-redis
 * @param ports resolved port of every server
 * @param configuration the whole configuration, for component keys
 */
public record StackSettings(
        Path dataDirectory,
        String host,
        Duration startTimeout,
        int kafkaPartitions,
        String s3AccessKey,
        String s3SecretKey,
        String s3Region,
        String warehouseBucket,
        Optional<Path> redisExecutable,
        Map<StackPort, Integer> ports,
        ConfigSource configuration) {
    public static final String DATA_DIRECTORY = "stack.data-dir";
    public static final String HOST = "stack.host";
    public static final String FREE_PORTS = "stack.free-ports";
    public static final String START_TIMEOUT = "stack.start-timeout";
    public static final String KAFKA_PARTITIONS = "stack.kafka-partitions";
    public static final String REDIS_EXECUTABLE = "stack.redis-executable";
    public static final String S3_ACCESS_KEY = "s3.access-key";
    public static final String S3_SECRET_KEY = "s3.secret-key";
    /** The S3 keys generated for a data folder when none are configured: {@code <data-dir>/secrets/s3.properties}. */
    public static final String S3_SECRETS_FILE = "s3.properties";

    private static final Object S3_KEY_GENERATION = new Object();

    /** Redis' memory limit, such as {@code 256mb}; see {@link #redisMaxMemory()}. */
    public static final String REDIS_MAXMEMORY = "redis.maxmemory";
    /** The Redis passwords generated for a data folder: {@code <data-dir>/secrets/redis.properties}. */
    public static final String REDIS_SECRETS_FILE = "redis.properties";

    private static final Object REDIS_PASSWORD_GENERATION = new Object();
    /** Prefix of the keys naming extra JVM options of one component, such as {@code stack.jvm-options.pipeline}. */
    public static final String JVM_OPTIONS_PREFIX = "stack.jvm-options.";

    public StackSettings {
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(host, "host is null");
        requireNonNull(startTimeout, "startTimeout is null");
        requireNonNull(s3AccessKey, "s3AccessKey is null");
        requireNonNull(s3SecretKey, "s3SecretKey is null");
        requireNonNull(s3Region, "s3Region is null");
        requireNonNull(warehouseBucket, "warehouseBucket is null");
        requireNonNull(redisExecutable, "redisExecutable is null");
        ports = Map.copyOf(requireNonNull(ports, "ports is null"));
        requireNonNull(configuration, "configuration is null");
        if (kafkaPartitions < 1) {
            throw new ConfigException(KAFKA_PARTITIONS + " must be at least 1, got " + kafkaPartitions);
        }
        for (StackPort port : StackPort.values()) {
            if (!ports.containsKey(port)) {
                throw new IllegalArgumentException("No port for " + port.key());
            }
        }
    }

    /**
     * Reads the settings. With {@code stack.free-ports=true} every port is a free one picked now (tests run beside
     * other stacks); otherwise each port is its key's value or default.
     *
     * @param defaultDataDirectory used when {@code stack.data-dir} is not set
     */
    public static StackSettings from(ConfigSource configuration, Path defaultDataDirectory) {
        String host = configuration.string(HOST, "127.0.0.1");
        boolean freePorts = configuration.bool(FREE_PORTS, false);
        Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
        Set<Integer> taken = new HashSet<>();
        for (StackPort port : StackPort.values()) {
            int number = freePorts ? freePort(host, taken) : configuration.port(port.key(), port.defaultPort());
            if (!taken.add(number)) {
                throw new ConfigException(port.key() + " = " + number + " is already used by another component");
            }
            ports.put(port, number);
        }
        return new StackSettings(
                configuration.path(DATA_DIRECTORY, defaultDataDirectory).toAbsolutePath(),
                host,
                configuration.duration(START_TIMEOUT, Duration.ofMinutes(3)),
                configuration.integer(KAFKA_PARTITIONS, 2),
                configuration.string(S3_ACCESS_KEY, ""),
                configuration.string(S3_SECRET_KEY, ""),
                configuration.string("s3.region", "us-east-1"),
                "warehouse",
                configuration.string(REDIS_EXECUTABLE).map(Path::of),
                ports,
                configuration);
    }

    /**
     * The S3 access key every component uses: {@code s3.access-key}, or else the one generated once for the data folder
     * and kept owner-only in {@code <data-dir>/secrets/s3.properties}.
     */
    @Override
    public String s3AccessKey() {
        return s3AccessKey.isEmpty() ? generatedS3Key("access-key") : s3AccessKey;
    }

    /** The S3 secret key, configured or generated like {@link #s3AccessKey()}; never print it. */
    @Override
    public String s3SecretKey() {
        return s3SecretKey.isEmpty() ? generatedS3Key("secret-key") : s3SecretKey;
    }

    /** The directory of the secrets the stack generates for its own components: {@code <data-dir>/secrets}. */
    public Path secretsDirectory() {
        return dataDirectory.resolve("secrets");
    }

    private String generatedS3Key(String name) {
        // One generation per data folder even when several threads of this process ask first at once.
        synchronized (S3_KEY_GENERATION) {
            return new SecretFile(
                            secretsDirectory().resolve(S3_SECRETS_FILE),
                            "S3 keys of the embedded S3 server, generated for this data folder")
                    .secret(name);
        }
    }

    public int port(StackPort port) {
        return ports.get(port);
    }

    public String kafkaBootstrapServers() {
        return host + ":" + port(StackPort.KAFKA);
    }

    public String s3Endpoint() {
        return "http://" + host + ":" + port(StackPort.S3);
    }

    public String catalogUri() {
        return "http://" + host + ":" + port(StackPort.CATALOG);
    }

    public String warehouse() {
        return "s3://" + warehouseBucket + "/";
    }

    public String mqttUri() {
        return "tcp://" + host + ":" + port(StackPort.MQTT);
    }

    /**
     * The URI with which a component reaches Redis as {@code role}: {@code redis://<role's user>:<password>@host:port},
     * the password generated for the data folder ({@link #redisPassword}). Handed to components in their owner-only
     * configuration files; never print it: see {@link #redisEndpoint()}.
     */
    public String redisUri(RedisRole role) {
        return RedisConnections.uri(host, port(StackPort.REDIS), role, redisPassword(role))
                .toString();
    }

    /** The Redis address without credentials, for messages. */
    public String redisEndpoint() {
        return "redis://" + host + ":" + port(StackPort.REDIS);
    }

    /**
     * The password of a Redis role's user, generated once for the data folder and kept owner-only in {@code
     * <data-dir>/secrets/redis.properties}; deleting that file and restarting the stack rotates every role's password.
     */
    public String redisPassword(RedisRole role) {
        requireNonNull(role, "role is null");
        // One generation per data folder even when several threads of this process ask first at once.
        synchronized (REDIS_PASSWORD_GENERATION) {
            return new SecretFile(
                            secretsDirectory().resolve(REDIS_SECRETS_FILE),
                            "Passwords of the embedded Redis' users (one per role), generated for this data folder")
                    .secret(role.user());
        }
    }

    /** The embedded Redis' ACL file: every role with its password's hash, the {@code default} user off. */
    public String redisAcl() {
        Map<RedisRole, String> passwords = new EnumMap<>(RedisRole.class);
        for (RedisRole role : RedisRole.values()) {
            passwords.put(role, redisPassword(role));
        }
        return RedisAcl.render(passwords);
    }

    /**
     * Redis' {@code maxmemory} ({@value #REDIS_MAXMEMORY}, default {@code 256mb}): with {@code maxmemory-policy
     * noeviction} a write past it is refused with an OOM error (alert FleetRedisFull), never paid for by evicting a
     * vehicle's state.
     */
    public String redisMaxMemory() {
        String value = configuration.string(REDIS_MAXMEMORY, "256mb").trim().toLowerCase(java.util.Locale.ROOT);
        if (!value.matches("[1-9][0-9]*(b|kb|mb|gb)?")) {
            throw new ConfigException(REDIS_MAXMEMORY + " must be a size such as 256mb or 1gb (not 0: Redis would have"
                    + " no limit), got " + value);
        }
        return value;
    }

    public String dashboardUri() {
        return "http://" + host + ":" + port(StackPort.DASHBOARD);
    }

    /**
     * The pipeline's Flink REST API, the embedded pipeline's MiniCluster or the session cluster's JobManager: HTTPS
     * that requires a client certificate ({@code StackFlinkRest} presents it).
     */
    public String flinkRestUri() {
        return "https://" + host + ":" + port(StackPort.FLINK);
    }

    public String planningUri() {
        return "http://" + host + ":" + port(StackPort.PLANNING);
    }

    /** Trino's JDBC URL on its HTTPS port, catalog {@code iceberg}; connect through {@link #trino(TrinoUser)}. */
    public String trinoJdbcUrl() {
        return "jdbc:trino://" + host + ":" + port(StackPort.TRINO_HTTPS) + "/iceberg";
    }

    /**
     * Connections to the stack's Trino as {@code user}, with its password generated for the data folder and the data
     * folder's Trino CA. {@link TrinoUser#ADMIN} connects to the {@value TrinoEtc#ICEBERG_ADMIN_CATALOG} catalog, the
     * only one through which Trino can write (it holds the maintainer's catalog credential, {@code iceberg} a
     * reader's).
     */
    public TrinoConnectionFactory trino(TrinoUser user) {
        EmbeddedTrinoSecrets secrets = trinoSecrets();
        TrinoConnectionFactory connections =
                TrinoConnectionFactory.of(trinoJdbcUrl(), user, secrets.password(user), secrets.caCertificate());
        return user == TrinoUser.ADMIN ? connections.withCatalog(TrinoEtc.ICEBERG_ADMIN_CATALOG) : connections;
    }

    /** Trino's generated passwords, shared secret and CA of this data folder. */
    public EmbeddedTrinoSecrets trinoSecrets() {
        return EmbeddedTrinoSecrets.of(dataDirectory);
    }

    /**
     * Extra JVM options for a component that runs in its own JVM ({@code stack.jvm-options.<component>}, separated by
     * whitespace), for example a larger heap or a flight recording; they come after the component's own options, so
     * they win where both set the same one. Empty when the key is not set.
     */
    public List<String> jvmOptions(String component) {
        return configuration
                .string(JVM_OPTIONS_PREFIX + component)
                .map(value -> List.of(value.trim().split("\\s+")))
                .orElse(List.of());
    }

    public Path componentDirectory(String component) {
        return dataDirectory.resolve(component);
    }

    public Path logFile(String component) {
        return dataDirectory.resolve("logs").resolve(component + ".log");
    }

    /**
     * Where a graceful stop of the pipeline leaves its savepoint, in either pipeline mode, for the next start in either
     * mode ({@code HandoverSavepoint}): {@code <data-dir>/handover}, on this machine, where the embedded pipeline and
     * the cluster's TaskManagers alike write and read it.
     */
    public Path handoverDirectory() {
        return dataDirectory.resolve("handover");
    }

    /** Where the pipeline runs: {@value PipelineMode#KEY}, {@code embedded} by default. */
    public PipelineMode pipelineMode() {
        return pipelineMode(configuration.string(PipelineMode.KEY, PipelineMode.EMBEDDED.toString()));
    }

    /** The mode of that name, in any case; a {@link ConfigException} naming the choices otherwise. */
    public static PipelineMode pipelineMode(String name) {
        try {
            return PipelineMode.named(name);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "StackSettings{dataDirectory=" + dataDirectory + ", host=" + host + ", ports=" + ports + ", s3AccessKey="
                + (s3AccessKey.isEmpty() ? "<generated>" : s3AccessKey) + ", s3SecretKey=***}";
    }

    /** {@link #host()} as an address, for binding and picking ports on it. */
    public InetAddress hostAddress() {
        return resolve(host);
    }

    private static int freePort(String host, Set<Integer> taken) {
        return FreePorts.pick(resolve(host), taken);
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(HOST + " = " + host + " does not resolve", e);
        }
    }
}
