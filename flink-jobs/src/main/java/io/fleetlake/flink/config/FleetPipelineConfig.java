package io.fleetlake.flink.config;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.flink.rest.FlinkRestStores;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.catalog.CatalogClientProperties;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.validation.ValidationRules;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Configuration of the fleet pipeline process, keys {@code pipeline.*}, the validation rules it applies, keys
 * {@code validation.*} (read from the same source by {@link ValidationRules#from}, so the pipeline and the dead-letter
 * reprocessing command can share one rules file), and how it enriches positions, keys {@code enrichment.*}
 * ({@link EnrichmentConfig}), and how its job restarts, keys {@code pipeline.restart-*} ({@link RestartConfig}). Every
 * value is validated here so that a wrong setting fails at
 * start-up with a message naming the key, not later inside a Flink task.
 *
 * @param kafkaBootstrapServers Kafka brokers, {@code host:port[,host:port...]}
 * @param consumerGroup Kafka consumer group; offsets are committed on every completed checkpoint
 * @param catalogUri Iceberg REST catalog endpoint
 * @param catalogCredential the pipeline's OAuth2 client credentials for the catalog ({@code <client id>:<secret>}, a
 *     writer's); empty for a catalog without authentication
 * @param warehouse Iceberg warehouse location
 * @param s3Endpoint S3-compatible storage endpoint
 * @param s3AccessKey S3 access key; empty to use the AWS default credential chain
 * @param s3SecretKey S3 secret key; empty to use the AWS default credential chain
 * @param s3Region S3 region
 * @param redisUri Redis holding the fleet's current state, with the pipeline role's user and password
 * @param redisVehicleTtl how long a vehicle's current state stays in Redis after its last write: the pipeline's
 *     newer-wins script sets it with every write, in the same atomic step, and drops expired vehicles from the GEO
 *     index and the last-seen set
 * @param checkpointInterval time between checkpoints; also the Iceberg commit interval
 * @param checkpointDirectory local directory for checkpoints of the pipeline's own MiniCluster, where the newest
 *     retained one is restored on start; required by {@code FleetPipelineMain}, unused in a Flink cluster, whose
 *     configuration holds the checkpoint storage
 * @param parallelism parallelism of every operator and number of task slots
 * @param dedupTtl how long a vehicle without any record or route update is remembered (its de-duplication memory,
 *     jump baseline, route and status)
 * @param restHost address every Flink endpoint (REST, RPC, blob server) binds to
 * @param restPort Flink REST port; the launcher's health check polls it
 * @param transactionalIdPrefix prefix of the Kafka transactional ids of the dead-letter producer; the late-positions
 *     producer uses {@code late-<prefix>}
 * @param planningUri base URI of the planning API, which serves every vehicle's route
 * @param maxOutOfOrderness how far behind the newest event time seen a position may arrive and still be on time: the
 *     event-time watermark trails the newest event time by this much
 * @param sourceIdleness a source subtask that receives no position for this long stops holding the watermark back
 * @param allowedLateness how long after its end (in event time) a one-minute window still accepts late positions, each
 *     of which replaces the window's row; later positions go to the late-positions topic
 * @param dedupFixesPerVehicle how many of each vehicle's last accepted fixes the de-duplication remembers
 * @param deadLetterMaxBytes largest dead letter (the dead-letter producer's {@code max.request.size}); larger ones are
 *     written with their payload cut
 * @param bufferTimeout longest a record waits in a network buffer that is not full before it is sent on
 * @param restart how the job restarts after a fault
 * @param handover how the pipeline on its own MiniCluster stops (with a savepoint in the handover folder) and what it
 *     may start from, keys {@code pipeline.handover-dir}, {@code pipeline.stop-timeout}, {@code
 *     pipeline.start-from-offsets-after-job} ({@link HandoverConfig})
 * @param validationRules the rules every position must pass
 * @param enrichment how positions are enriched with routes and statuses
 * @param kafkaCredentials the pipeline's SASL/SCRAM login to Kafka for its source and its two transactional sinks
 *     (keys {@code pipeline.kafka-username}, {@code pipeline.kafka-password}); empty for a broker without
 *     authentication, such as the embedded stack's
 * @param restTls the stores of the MiniCluster's REST endpoint, which then requires mutual TLS, and of the pipeline's
 *     own client of it (keys {@code pipeline.flink-rest-key-store}, {@code pipeline.flink-rest-trust-store}, {@code
 *     pipeline.flink-rest-store-password}); empty for plain HTTP
 */
public record FleetPipelineConfig(
        String kafkaBootstrapServers,
        String consumerGroup,
        URI catalogUri,
        Optional<CatalogCredential> catalogCredential,
        String warehouse,
        URI s3Endpoint,
        Optional<String> s3AccessKey,
        Optional<String> s3SecretKey,
        String s3Region,
        URI redisUri,
        Duration redisVehicleTtl,
        Duration checkpointInterval,
        Optional<Path> checkpointDirectory,
        int parallelism,
        Duration dedupTtl,
        String restHost,
        int restPort,
        String transactionalIdPrefix,
        URI planningUri,
        Duration maxOutOfOrderness,
        Duration sourceIdleness,
        Duration allowedLateness,
        int dedupFixesPerVehicle,
        int deadLetterMaxBytes,
        Duration bufferTimeout,
        RestartConfig restart,
        HandoverConfig handover,
        ValidationRules validationRules,
        EnrichmentConfig enrichment,
        Optional<KafkaSaslCredentials> kafkaCredentials,
        Optional<FlinkRestStores> restTls) {
    /** The component of the Kafka login's keys: {@code pipeline.kafka-username}, {@code pipeline.kafka-password}. */
    public static final String KAFKA_CREDENTIALS_COMPONENT = "pipeline";

    public static final String KAFKA_BOOTSTRAP_SERVERS = "pipeline.kafka-bootstrap-servers";
    public static final String CONSUMER_GROUP = "pipeline.consumer-group";
    public static final String CATALOG_URI = "pipeline.catalog-uri";
    public static final String CATALOG_CREDENTIAL = "pipeline.catalog-credential";
    public static final String WAREHOUSE = "pipeline.warehouse";
    public static final String S3_ENDPOINT = "pipeline.s3-endpoint";
    public static final String S3_ACCESS_KEY = "pipeline.s3-access-key";
    public static final String S3_SECRET_KEY = "pipeline.s3-secret-key";
    public static final String S3_REGION = "pipeline.s3-region";
    public static final String REDIS_URI = "pipeline.redis-uri";
    public static final String REDIS_VEHICLE_TTL = RedisKeys.VEHICLE_TTL_KEY;
    public static final String CHECKPOINT_INTERVAL = "pipeline.checkpoint-interval";
    public static final String CHECKPOINT_DIR = "pipeline.checkpoint-dir";
    public static final String PARALLELISM = "pipeline.parallelism";
    public static final String DEDUP_TTL = "pipeline.dedup-ttl";
    public static final String REST_HOST = "pipeline.rest-host";
    public static final String REST_PORT = "pipeline.rest-port";
    public static final String TRANSACTIONAL_ID_PREFIX = "pipeline.transactional-id-prefix";
    public static final String PLANNING_URI = "pipeline.planning-uri";
    public static final String MAX_OUT_OF_ORDERNESS = "pipeline.max-out-of-orderness";
    public static final String SOURCE_IDLENESS = "pipeline.source-idleness";
    public static final String ALLOWED_LATENESS = "pipeline.allowed-lateness";
    public static final String DEDUP_FIXES_PER_VEHICLE = "pipeline.dedup-fixes-per-vehicle";
    public static final String DEAD_LETTER_MAX_BYTES = "pipeline.dead-letter-max-bytes";
    public static final String BUFFER_TIMEOUT = "pipeline.buffer-timeout";
    /** The prefix of the REST endpoint's stores: {@code pipeline.flink-rest-key-store} and the like. */
    public static final String REST_TLS_PREFIX = "pipeline.";

    public static final String DEFAULT_KAFKA_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    public static final String DEFAULT_CONSUMER_GROUP = "fleet-pipeline";
    public static final URI DEFAULT_CATALOG_URI = URI.create("http://127.0.0.1:8181");
    public static final String DEFAULT_WAREHOUSE = "s3://warehouse/";
    public static final URI DEFAULT_S3_ENDPOINT = URI.create("http://127.0.0.1:9000");
    public static final String DEFAULT_S3_REGION = "us-east-1";
    public static final URI DEFAULT_REDIS_URI = URI.create("redis://127.0.0.1:6379");
    public static final Duration DEFAULT_REDIS_VEHICLE_TTL = RedisKeys.DEFAULT_VEHICLE_TTL;
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    public static final int DEFAULT_PARALLELISM = 2;
    public static final Duration DEFAULT_DEDUP_TTL = Duration.ofHours(24);
    public static final String DEFAULT_REST_HOST = "127.0.0.1";
    public static final int DEFAULT_REST_PORT = 8081;
    public static final String DEFAULT_TRANSACTIONAL_ID_PREFIX = "fleet-pipeline";
    public static final URI DEFAULT_PLANNING_URI = URI.create("http://127.0.0.1:8090");
    public static final Duration DEFAULT_MAX_OUT_OF_ORDERNESS = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SOURCE_IDLENESS = Duration.ofMinutes(1);
    public static final Duration DEFAULT_ALLOWED_LATENESS = Duration.ofMinutes(5);
    public static final int DEFAULT_DEDUP_FIXES_PER_VEHICLE = 64;
    /** Kafka's default {@code max.request.size}. */
    public static final int DEFAULT_DEAD_LETTER_MAX_BYTES = 1_048_576;

    public static final Duration DEFAULT_BUFFER_TIMEOUT = Duration.ofMillis(10);
    private static final int MAX_DEDUP_FIXES_PER_VEHICLE = 100_000;
    private static final int MIN_DEAD_LETTER_MAX_BYTES = 16 * 1024;

    private static final Set<String> HTTP_SCHEMES = Set.of("http", "https");
    private static final Set<String> REDIS_SCHEMES = Set.of("redis", "rediss");
    private static final String REDACTED = "<redacted>";

    public FleetPipelineConfig {
        requireNonNull(kafkaBootstrapServers, "kafkaBootstrapServers is null");
        requireNonNull(consumerGroup, "consumerGroup is null");
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(catalogCredential, "catalogCredential is null");
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(s3Endpoint, "s3Endpoint is null");
        requireNonNull(s3AccessKey, "s3AccessKey is null");
        requireNonNull(s3SecretKey, "s3SecretKey is null");
        requireNonNull(s3Region, "s3Region is null");
        requireNonNull(redisUri, "redisUri is null");
        requireNonNull(redisVehicleTtl, "redisVehicleTtl is null");
        if (redisVehicleTtl.toMillis() < 1000) {
            throw new ConfigException(REDIS_VEHICLE_TTL + " must be at least 1s, got " + redisVehicleTtl);
        }
        requireNonNull(checkpointInterval, "checkpointInterval is null");
        requireNonNull(checkpointDirectory, "checkpointDirectory is null");
        requireNonNull(dedupTtl, "dedupTtl is null");
        requireNonNull(restHost, "restHost is null");
        requireNonNull(transactionalIdPrefix, "transactionalIdPrefix is null");
        requireNonNull(planningUri, "planningUri is null");
        requireNonNull(maxOutOfOrderness, "maxOutOfOrderness is null");
        requireNonNull(sourceIdleness, "sourceIdleness is null");
        requireNonNull(allowedLateness, "allowedLateness is null");
        requireNonNull(bufferTimeout, "bufferTimeout is null");
        requireNonNull(restart, "restart is null");
        requireNonNull(handover, "handover is null");
        requireNonNull(validationRules, "validationRules is null");
        requireNonNull(enrichment, "enrichment is null");
        requireNonNull(kafkaCredentials, "kafkaCredentials is null");
        requireNonNull(restTls, "restTls is null");
        requireText(KAFKA_BOOTSTRAP_SERVERS, kafkaBootstrapServers);
        requireText(CONSUMER_GROUP, consumerGroup);
        requireText(WAREHOUSE, warehouse);
        requireText(S3_REGION, s3Region);
        requireText(REST_HOST, restHost);
        requireText(TRANSACTIONAL_ID_PREFIX, transactionalIdPrefix);
        requireScheme(CATALOG_URI, catalogUri, HTTP_SCHEMES);
        requireScheme(S3_ENDPOINT, s3Endpoint, HTTP_SCHEMES);
        requireScheme(REDIS_URI, redisUri, REDIS_SCHEMES);
        requireScheme(PLANNING_URI, planningUri, HTTP_SCHEMES);
        if (s3AccessKey.isPresent() != s3SecretKey.isPresent()) {
            throw new ConfigException("Set both " + S3_ACCESS_KEY + " and " + S3_SECRET_KEY
                    + ", or neither to use the AWS default credential chain");
        }
        requirePositive(CHECKPOINT_INTERVAL, checkpointInterval);
        requirePositive(DEDUP_TTL, dedupTtl);
        requirePositive(SOURCE_IDLENESS, sourceIdleness);
        requireNotNegative(MAX_OUT_OF_ORDERNESS, maxOutOfOrderness);
        requireNotNegative(ALLOWED_LATENESS, allowedLateness);
        requireNotNegative(BUFFER_TIMEOUT, bufferTimeout);
        if (dedupFixesPerVehicle < 1 || dedupFixesPerVehicle > MAX_DEDUP_FIXES_PER_VEHICLE) {
            throw new ConfigException("Invalid configuration " + DEDUP_FIXES_PER_VEHICLE + " = " + dedupFixesPerVehicle
                    + ": expected 1 to " + MAX_DEDUP_FIXES_PER_VEHICLE + " fixes (each costs about 32 bytes of state"
                    + " per vehicle)");
        }
        if (deadLetterMaxBytes < MIN_DEAD_LETTER_MAX_BYTES) {
            throw new ConfigException("Invalid configuration " + DEAD_LETTER_MAX_BYTES + " = " + deadLetterMaxBytes
                    + ": expected at least " + MIN_DEAD_LETTER_MAX_BYTES + " bytes, and at most the broker's"
                    + " message.max.bytes (1048588 by default)");
        }
        if (parallelism < 1) {
            throw new ConfigException("Invalid configuration " + PARALLELISM + " = " + parallelism
                    + ": expected at least 1 (it is also the number of task slots)");
        }
        if (restPort < 1 || restPort > 65535) {
            throw new ConfigException("Invalid configuration " + REST_PORT + " = " + restPort
                    + ": expected a fixed port between 1 and 65535, because the launcher's health check polls it");
        }
        checkpointDirectory =
                checkpointDirectory.map(path -> path.toAbsolutePath().normalize());
        checkpointDirectory.ifPresent(path -> {
            if (Files.exists(path) && !Files.isDirectory(path)) {
                throw new ConfigException("Invalid configuration " + CHECKPOINT_DIR + " = " + path
                        + ": it exists but is not a directory; choose a directory path");
            }
        });
    }

    /**
     * Reads and validates every {@code pipeline.*}, {@code validation.*} and {@code enrichment.*} key. Only
     * {@value #CHECKPOINT_DIR} has no default; the local runner requires it ({@link #requireCheckpointDirectory()}).
     */
    public static FleetPipelineConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new FleetPipelineConfig(
                source.string(KAFKA_BOOTSTRAP_SERVERS, DEFAULT_KAFKA_BOOTSTRAP_SERVERS),
                source.string(CONSUMER_GROUP, DEFAULT_CONSUMER_GROUP),
                source.uri(CATALOG_URI, DEFAULT_CATALOG_URI),
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value)),
                source.string(WAREHOUSE, DEFAULT_WAREHOUSE),
                source.uri(S3_ENDPOINT, DEFAULT_S3_ENDPOINT),
                source.string(S3_ACCESS_KEY),
                source.string(S3_SECRET_KEY),
                source.string(S3_REGION, DEFAULT_S3_REGION),
                source.uri(REDIS_URI, DEFAULT_REDIS_URI),
                source.duration(REDIS_VEHICLE_TTL, DEFAULT_REDIS_VEHICLE_TTL),
                source.duration(CHECKPOINT_INTERVAL, DEFAULT_CHECKPOINT_INTERVAL),
                source.string(CHECKPOINT_DIR).map(Path::of),
                source.integer(PARALLELISM, DEFAULT_PARALLELISM),
                source.duration(DEDUP_TTL, DEFAULT_DEDUP_TTL),
                source.string(REST_HOST, DEFAULT_REST_HOST),
                source.port(REST_PORT, DEFAULT_REST_PORT),
                source.string(TRANSACTIONAL_ID_PREFIX, DEFAULT_TRANSACTIONAL_ID_PREFIX),
                source.uri(PLANNING_URI, DEFAULT_PLANNING_URI),
                source.duration(MAX_OUT_OF_ORDERNESS, DEFAULT_MAX_OUT_OF_ORDERNESS),
                source.duration(SOURCE_IDLENESS, DEFAULT_SOURCE_IDLENESS),
                source.duration(ALLOWED_LATENESS, DEFAULT_ALLOWED_LATENESS),
                source.integer(DEDUP_FIXES_PER_VEHICLE, DEFAULT_DEDUP_FIXES_PER_VEHICLE),
                source.integer(DEAD_LETTER_MAX_BYTES, DEFAULT_DEAD_LETTER_MAX_BYTES),
                source.duration(BUFFER_TIMEOUT, DEFAULT_BUFFER_TIMEOUT),
                RestartConfig.from(source),
                HandoverConfig.from(source),
                ValidationRules.from(source),
                EnrichmentConfig.from(source),
                KafkaSaslCredentials.from(source, KAFKA_CREDENTIALS_COMPONENT),
                restTls(source));
    }

    private static Optional<FlinkRestStores> restTls(ConfigSource source) {
        try {
            return FlinkRestStores.fromOptions(REST_TLS_PREFIX, source::string);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The URI of the MiniCluster's REST API: HTTPS when {@link #restTls()} is set. */
    public String restUri() {
        return (restTls.isPresent() ? "https" : "http") + "://" + restHost + ":" + restPort;
    }

    /**
     * The security settings every Kafka client of the pipeline adds to its own (the source's consumer, the dead-letter
     * and late-positions producers): the SASL/SCRAM login when {@link #kafkaCredentials()} is set, none otherwise.
     */
    public Map<String, String> kafkaClientProperties() {
        return KafkaSaslCredentials.clientProperties(kafkaCredentials);
    }

    /**
     * The Iceberg REST catalog client of the pipeline's table sinks, with S3FileIO on the S3-compatible storage:
     * buckets addressed by path, as S3-compatible servers such as S3Proxy serve them.
     */
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

    /**
     * The checkpoint directory of the pipeline's own MiniCluster, which it needs to resume after a restart; a Flink
     * cluster has its checkpoint storage in its own configuration instead.
     */
    public Path requireCheckpointDirectory() {
        return checkpointDirectory.orElseThrow(() -> new ConfigException("Missing required configuration "
                + CHECKPOINT_DIR + " (set it in the configuration file or the environment variable "
                + ConfigSource.environmentName(CHECKPOINT_DIR) + "): the pipeline on its own MiniCluster keeps its"
                + " checkpoints there and resumes from the newest one; in a Flink cluster, run"
                + " FleetPipelineClusterMain, which uses the cluster's checkpoint storage"));
    }

    @Override
    public String toString() {
        return "FleetPipelineConfig{kafkaBootstrapServers=" + kafkaBootstrapServers + ", consumerGroup="
                + consumerGroup + ", " + catalogClient().describe() + ", redisUri=" + redactUserInfo(redisUri)
                + ", redisVehicleTtl=" + redisVehicleTtl
                + ", checkpointInterval=" + checkpointInterval
                + ", checkpointDirectory="
                + checkpointDirectory.map(Path::toString).orElse("<none>") + ", parallelism=" + parallelism
                + ", dedupTtl="
                + dedupTtl + ", restHost=" + restHost + ", restPort=" + restPort + ", transactionalIdPrefix="
                + transactionalIdPrefix + ", planningUri=" + redactUserInfo(planningUri) + ", maxOutOfOrderness="
                + maxOutOfOrderness + ", sourceIdleness=" + sourceIdleness + ", allowedLateness=" + allowedLateness
                + ", dedupFixesPerVehicle=" + dedupFixesPerVehicle + ", deadLetterMaxBytes=" + deadLetterMaxBytes
                + ", bufferTimeout=" + bufferTimeout + ", restart=" + restart + ", handover=" + handover
                + ", validationRules=" + validationRules + ", enrichment=" + enrichment + ", kafkaCredentials="
                + kafkaCredentials.map(Object::toString).orElse("<none>") + ", restTls="
                + restTls.map(Object::toString).orElse("<none>") + "}";
    }

    /** A URI may carry a user and password ({@code redis://user:password@host:port/database}). */
    private static String redactUserInfo(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri.toString();
        }
        return uri.getScheme() + "://" + REDACTED + "@" + uri.getHost()
                + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private static void requireNotNegative(String key, Duration duration) {
        if (duration.isNegative()) {
            throw new ConfigException(
                    "Invalid configuration " + key + " = " + duration + ": expected zero or a positive duration");
        }
    }

    private static void requireText(String key, String value) {
        if (value.isBlank()) {
            throw new ConfigException("Configuration " + key + " must not be empty");
        }
    }

    private static void requireScheme(String key, URI uri, Set<String> schemes) {
        if (uri.getScheme() == null || !schemes.contains(uri.getScheme()) || uri.getHost() == null) {
            throw new ConfigException("Invalid configuration " + key + " = '" + uri + "': expected a URI with a host"
                    + " and one of the schemes " + schemes.stream().sorted().toList());
        }
    }

    private static void requirePositive(String key, Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new ConfigException(
                    "Invalid configuration " + key + " = " + duration + ": expected a positive duration such as 10s");
        }
    }
}
