package io.fleetlake.stack.containers;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.mqtt.MosquittoFiles;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.stack.CatalogDatabase;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.RedisServerCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What each container of {@link ContainerServers} runs with — images, environment, commands, generated files, port
 * bindings — as pure functions of the stack's settings, so that they are unit-tested without a Docker engine. Images
 * are the ones docker-compose.yml pins.
 */
final class ContainerDefinitions {
    static final String KAFKA_IMAGE = "apache/kafka:4.2.0";
    static final String MINIO_IMAGE = "minio/minio:RELEASE.2025-09-07T16-13-09Z";
    static final String POSTGRES_IMAGE = "postgres:17.11";
    static final String TRINO_IMAGE = "trinodb/trino:476";
    static final String REDIS_IMAGE = "redis:7.4.11";
    /** Where the container finds the stack's Redis ACL file. */
    static final String REDIS_ACL_FILE = "/usr/local/etc/redis/users.acl";

    static final String MOSQUITTO_IMAGE = "eclipse-mosquitto:2.0.22";

    static final int KAFKA_PORT = 9092;
    static final int S3_PORT = 9000;
    static final int POSTGRES_PORT = 5432;
    static final int REDIS_PORT = 6379;
    static final int MQTT_PORT = 1883;

    /** Name of the PostgreSQL component; the catalog waits for it. */
    static final String POSTGRES = "postgres";

    /** Network alias of MinIO on the network it shares with Trino. */
    static final String MINIO_ALIAS = "minio";

    static final String CATALOG_DATABASE = "catalog";
    static final String CATALOG_DATABASE_USER = "fleet";
    static final String MOSQUITTO_CONFIG_FILE = "/mosquitto/config/mosquitto.conf";
    /** Where compose's Mosquitto has them too (deploy/mosquitto/mosquitto.conf). */
    static final String MOSQUITTO_PASSWORD_FILE = "/mosquitto/auth/" + MosquittoFiles.PASSWORD_FILE;

    static final String MOSQUITTO_ACL_FILE = "/mosquitto/auth/" + MosquittoFiles.ACL_FILE;

    /**
     * How a container reaches a port of this machine once Testcontainers exposes it (the same as {@code
     * GenericContainer.INTERNAL_HOST_HOSTNAME}).
     */
    static final String HOST_FROM_CONTAINERS = "host.testcontainers.internal";

    // S3 bucket names: lower-case letters, digits, dots and hyphens; it also keeps the bucket command a plain word.
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{2,62}");

    private ContainerDefinitions() {}

    /**
     * A Docker port binding in {@code host-ip:host-port:container-port} form: the container's port published on the
     * stack's address only, never on every interface.
     */
    static String portBinding(String host, int hostPort, int containerPort) {
        requireNonNull(host, "host is null");
        if (host.contains(":")) {
            throw new IllegalArgumentException("stack.host = " + host + " is an IPv6 address; the container provider"
                    + " publishes ports on IPv4 addresses only: use 127.0.0.1");
        }
        return host + ":" + hostPort + ":" + containerPort;
    }

    /**
     * Broker settings on top of the Testcontainers Kafka module's (single KRaft node, replication factor 1 for the
     * offsets and transaction logs), as the embedded broker and docker-compose.yml have them.
     */
    static Map<String, String> kafkaEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>();
        // Topics come from the stack's kafka-topics task with their partitions and policies.
        environment.put("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
        environment.put("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1");
        environment.put("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1");
        return environment;
    }

    /** MinIO signs for the region clients use (its default would reject any other). */
    static Map<String, String> minioEnvironment(StackSettings settings) {
        return Map.of("MINIO_SITE_REGION", settings.s3Region());
    }

    /**
     * Creates the warehouse bucket with the MinIO client inside the MinIO container; the root credentials come from the
     * container's environment, so they never appear on a command line.
     */
    static List<String> createBucketCommand(String bucket) {
        if (!BUCKET_NAME.matcher(bucket).matches()) {
            throw new IllegalArgumentException("'" + bucket + "' is not an S3 bucket name");
        }
        return List.of(
                "sh",
                "-c",
                "mc alias set fleet http://127.0.0.1:" + S3_PORT
                        + " \"$MINIO_ROOT_USER\" \"$MINIO_ROOT_PASSWORD\" > /dev/null"
                        + " && mc mb --ignore-existing fleet/" + bucket);
    }

    /**
     * redis-server with the stack's ACL file ({@link StackSettings#redisAcl()}, copied to {@value #REDIS_ACL_FILE}:
     * the users of the roles, default off) and its memory limit, as the embedded Redis.
     */
    static List<String> redisCommand(StackSettings settings) {
        List<String> command = new ArrayList<>(List.of(
                "redis-server",
                // Reached from the host through the port binding, which does not come from loopback inside the
                // container; the binding itself is on the stack's address only.
                "--protected-mode",
                "no",
                // A test container lives for one run: no snapshots.
                "--save",
                ""));
        command.addAll(RedisServerCommand.limitArguments(settings.redisMaxMemory()));
        command.addAll(List.of("--aclfile", REDIS_ACL_FILE));
        return List.copyOf(command);
    }

    /**
     * Mosquitto's configuration. Every client authenticates as one of the stack's MQTT principals and publishes and
     * subscribes only within its grant, as with the embedded broker and compose's Mosquitto: {@value
     * #MOSQUITTO_PASSWORD_FILE} and {@value #MOSQUITTO_ACL_FILE} are {@link #mosquittoAuthentication}'s. Queue sizes as
     * in deploy/mosquitto/mosquitto.conf: Mosquitto's defaults silently drop QoS 1 messages of a session that falls
     * behind, such as the ingest worker while a test restarts it; the queued bytes per session are bounded (512 MiB) so
     * that memory stays bounded, and a device's reconnect burst is acknowledged as it is read (see that file).
     */
    static String mosquittoConfiguration() {
        return String.join(
                "\n",
                "# Written by the stack's container provider for the end-to-end tests.",
                // One listener: the settings of the password and ACL files below apply to it.
                "per_listener_settings false",
                "allow_anonymous false",
                "password_file " + MOSQUITTO_PASSWORD_FILE,
                "acl_file " + MOSQUITTO_ACL_FILE,
                // Inside the container it listens on the container's interfaces; the host sees the bound port only.
                "listener " + MQTT_PORT,
                // Sessions live as long as the container, which lives for one run.
                "persistence false",
                "max_queued_messages 500000",
                "max_queued_bytes 536870912",
                "max_inflight_messages 1000",
                "log_dest stdout",
                "log_type error",
                "log_type warning",
                "log_type notice",
                "log_type information",
                "connection_messages true",
                "");
    }

    /**
     * Mosquitto's password and ACL files for the principals of {@code registry}, by their path in the container:
     * rendered by {@link MosquittoFiles}, as {@code fleet devices export-mosquitto} renders them for compose. Password
     * hashes only; a gateway's id prefix is expanded over the vehicles the registry knows (see {@link MosquittoFiles}).
     */
    static Map<String, String> mosquittoAuthentication(PrincipalRegistry registry) {
        MosquittoFiles.Rendered rendered = MosquittoFiles.render(requireNonNull(registry, "registry is null"));
        Map<String, String> files = new LinkedHashMap<>();
        files.put(MOSQUITTO_PASSWORD_FILE, rendered.passwordFile());
        files.put(MOSQUITTO_ACL_FILE, rendered.aclFile());
        return files;
    }

    /** Properties file text, in the map's order. */
    static String render(Map<String, String> properties) {
        StringBuilder text = new StringBuilder();
        properties.forEach((key, value) ->
                text.append(key).append('=').append(value.replace("\\", "\\\\")).append('\n'));
        return text.toString();
    }

    /** The catalog on the PostgreSQL container, published on {@code host:port}. */
    static CatalogDatabase catalogDatabase(String host, int port, String password) {
        return new CatalogDatabase(
                Map.of(
                        "catalog.jdbc-url", "jdbc:postgresql://" + host + ":" + port + "/" + CATALOG_DATABASE,
                        "catalog.jdbc-user", CATALOG_DATABASE_USER,
                        "catalog.jdbc-password", password),
                Set.of(POSTGRES));
    }
}
