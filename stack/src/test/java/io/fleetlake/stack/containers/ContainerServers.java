package io.fleetlake.stack.containers;

import static io.fleetlake.stack.containers.ContainerDefinitions.CATALOG_DATABASE;
import static io.fleetlake.stack.containers.ContainerDefinitions.CATALOG_DATABASE_USER;
import static io.fleetlake.stack.containers.ContainerDefinitions.KAFKA_IMAGE;
import static io.fleetlake.stack.containers.ContainerDefinitions.KAFKA_PORT;
import static io.fleetlake.stack.containers.ContainerDefinitions.MINIO_ALIAS;
import static io.fleetlake.stack.containers.ContainerDefinitions.MINIO_IMAGE;
import static io.fleetlake.stack.containers.ContainerDefinitions.MOSQUITTO_ACL_FILE;
import static io.fleetlake.stack.containers.ContainerDefinitions.MOSQUITTO_CONFIG_FILE;
import static io.fleetlake.stack.containers.ContainerDefinitions.MOSQUITTO_IMAGE;
import static io.fleetlake.stack.containers.ContainerDefinitions.MOSQUITTO_PASSWORD_FILE;
import static io.fleetlake.stack.containers.ContainerDefinitions.MQTT_PORT;
import static io.fleetlake.stack.containers.ContainerDefinitions.POSTGRES;
import static io.fleetlake.stack.containers.ContainerDefinitions.POSTGRES_IMAGE;
import static io.fleetlake.stack.containers.ContainerDefinitions.POSTGRES_PORT;
import static io.fleetlake.stack.containers.ContainerDefinitions.REDIS_IMAGE;
import static io.fleetlake.stack.containers.ContainerDefinitions.REDIS_PORT;
import static io.fleetlake.stack.containers.ContainerDefinitions.S3_PORT;
import static io.fleetlake.stack.containers.ContainerDefinitions.TRINO_IMAGE;
import static java.util.Objects.requireNonNull;

import io.fleetlake.common.process.FreePorts;
import io.fleetlake.identity.Secrets;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.CatalogDatabase;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackServers;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.FlinkClusterSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.identity.StackMqttIdentity;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.trino.TrinoHealthCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MinIOContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The stack's servers in containers, for the end-to-end tests ({@code -Pcontainers}): Kafka, MinIO and PostgreSQL
 * through their Testcontainers modules, Trino, Redis and Mosquitto as generic containers. The catalog keeps its tables
 * in PostgreSQL. The project's own services stay processes launched by {@link FleetStack}, pointed at these containers.
 *
 * <p>Every container port is published on the host port that {@link StackSettings} chose, on the stack's address,
 * instead of a port Docker picks: every endpoint in the settings (which the services' configuration files and the
 * tests use) stays valid, and a container started again — the tests stop and start Redis — comes back where the
 * services still point.
 */
public final class ContainerServers implements StackServers {
    // Trino in a container sizes its heap from the memory it sees (80%); this keeps it to a share of a small machine.
    private static final long TRINO_MEMORY_BYTES = 2L * 1024 * 1024 * 1024;

    private final StackSettings settings;
    // The checkout, whose deploy/ files the Trino container runs with as compose's does.
    private final FleetHome home;
    private final int postgresPort;
    private final String postgresPassword;
    // MinIO and Trino: Trino reads table files from MinIO by its alias. Created by Docker when the first one starts.
    private final Network network = Network.newNetwork();

    ContainerServers(StackSettings settings, FleetHome home, int postgresPort, String postgresPassword) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
        this.postgresPort = postgresPort;
        this.postgresPassword = requireNonNull(postgresPassword, "postgresPassword is null");
    }

    /** Servers for the settings' ports, plus a free port and a fresh password for the catalog's PostgreSQL. */
    public static ContainerServers create(StackSettings settings, FleetHome home) {
        return new ContainerServers(
                settings, home, freePort(settings), UUID.randomUUID().toString());
    }

    @Override
    public List<Component> components() {
        return List.of(kafka(), s3(), mqtt(), redis(), trino(), postgres());
    }

    @Override
    public CatalogDatabase catalogDatabase() {
        return ContainerDefinitions.catalogDatabase(settings.host(), postgresPort, postgresPassword);
    }

    private Component kafka() {
        KafkaContainer kafka =
                new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE)).withEnv(ContainerDefinitions.kafkaEnvironment());
        publish(kafka, settings.port(StackPort.KAFKA), KAFKA_PORT);
        return new ContainerComponent(
                FleetStack.KAFKA,
                Set.of(),
                kafka,
                HealthProbes.kafka(settings.kafkaBootstrapServers()),
                "PLAINTEXT://" + settings.kafkaBootstrapServers());
    }

    private Component s3() {
        MinIOContainer minio = new MinIOContainer(DockerImageName.parse(MINIO_IMAGE))
                .withUserName(settings.s3AccessKey())
                .withPassword(settings.s3SecretKey())
                .withEnv(ContainerDefinitions.minioEnvironment(settings))
                .withNetwork(network)
                .withNetworkAliases(MINIO_ALIAS);
        publish(minio, settings.port(StackPort.S3), S3_PORT);
        return new ContainerComponent(
                FleetStack.S3,
                Set.of(),
                minio,
                HealthProbes.http(URI.create(settings.s3Endpoint() + "/minio/health/live"), body -> true),
                settings.s3Endpoint(),
                () -> {},
                () -> {
                    execute(minio, ContainerDefinitions.createBucketCommand(settings.warehouseBucket()));
                    // Checkpoints and savepoints of the cluster pipeline mode (ClusterFailoverIT), as the embedded S3
                    // server creates it.
                    execute(minio, ContainerDefinitions.createBucketCommand(FlinkClusterSettings.BUCKET));
                });
    }

    private Component mqtt() {
        GenericContainer<?> mosquitto = new GenericContainer<>(DockerImageName.parse(MOSQUITTO_IMAGE))
                .withCopyToContainer(
                        Transferable.of(ContainerDefinitions.mosquittoConfiguration()), MOSQUITTO_CONFIG_FILE)
                .waitingFor(Wait.forLogMessage(".*mosquitto version .* running.*", 1));
        // The principals of the stack's registry (FleetStack creates its own before it asks for its servers), at each
        // start and within seconds of a change.
        MosquittoAuthentication authentication = new MosquittoAuthentication(
                () -> StackMqttIdentity.of(settings).administration().registry());
        for (String path : List.of(MOSQUITTO_PASSWORD_FILE, MOSQUITTO_ACL_FILE)) {
            mosquitto.withCopyToContainer(authentication.file(path), path);
        }
        publish(mosquitto, Map.of(settings.port(StackPort.MQTT), MQTT_PORT));
        return new ContainerComponent(
                FleetStack.MQTT,
                Set.of(),
                mosquitto,
                HealthProbes.tcp(settings.host(), settings.port(StackPort.MQTT)),
                settings.mqttUri(),
                () -> {},
                () -> authentication.follow(mosquitto));
    }

    private Component redis() {
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse(REDIS_IMAGE))
                .withCopyToContainer(Transferable.of(settings.redisAcl()), ContainerDefinitions.REDIS_ACL_FILE)
                .withCommand(ContainerDefinitions.redisCommand(settings).toArray(String[]::new));
        publish(redis, settings.port(StackPort.REDIS), REDIS_PORT);
        return new ContainerComponent(
                FleetStack.REDIS,
                Set.of(),
                redis,
                HealthProbes.redis(URI.create(settings.redisUri(RedisRole.MONITOR))),
                settings.redisEndpoint());
    }

    private Component trino() {
        int catalogPort = settings.port(StackPort.CATALOG);
        // A fresh password for a key store that lives as long as the container.
        String keystorePassword = Secrets.generate(new SecureRandom());
        GenericContainer<?> trino = new GenericContainer<>(DockerImageName.parse(TRINO_IMAGE))
                .withNetwork(network)
                .withAccessToHost(true)
                // Secrets in the environment only, as compose's trino service: start.sh hashes the passwords into
                // Trino's password file, the configuration files read the rest as ${ENV:...}.
                .withEnv(TrinoContainerDefinitions.environment(settings, keystorePassword))
                .withCreateContainerCmdModifier(command -> command.withEntrypoint(TrinoContainerDefinitions.ENTRYPOINT)
                        .getHostConfig()
                        .withMemory(TRINO_MEMORY_BYTES))
                // Trino can take longer than Testcontainers' default 60 s to listen: the stack's own start timeout
                // applies.
                .withStartupTimeout(settings.startTimeout());
        TrinoContainerDefinitions.deploymentFiles(home.root())
                .forEach((path, file) -> trino.withCopyToContainer(file, path));
        TrinoContainerDefinitions.generatedFiles(settings, keystorePassword.toCharArray())
                .forEach((path, file) -> trino.withCopyToContainer(file, path));
        // Clients on HTTPS, as StackSettings#trinoJdbcUrl says; HTTP for the health check only (it refuses clients).
        publish(
                trino,
                Map.of(
                        settings.port(StackPort.TRINO), TrinoContainerDefinitions.HTTP_PORT,
                        settings.port(StackPort.TRINO_HTTPS), TrinoContainerDefinitions.HTTPS_PORT));
        TrinoHealthCheck health =
                new TrinoHealthCheck(URI.create("http://" + settings.host() + ":" + settings.port(StackPort.TRINO)));
        return new ContainerComponent(
                FleetStack.TRINO,
                Set.of(FleetStack.CATALOG, FleetStack.S3),
                trino,
                () -> isReady(health),
                settings.trinoJdbcUrl(),
                // The REST catalog is a process on this machine; Trino reaches it as host.testcontainers.internal.
                () -> Testcontainers.exposeHostPorts(catalogPort),
                () -> {});
    }

    private Component postgres() {
        PostgreSQLContainer<?> postgres = new PostgreSQLContainer<>(DockerImageName.parse(POSTGRES_IMAGE))
                .withDatabaseName(CATALOG_DATABASE)
                .withUsername(CATALOG_DATABASE_USER)
                .withPassword(postgresPassword);
        publish(postgres, postgresPort, POSTGRES_PORT);
        return new ContainerComponent(
                POSTGRES,
                Set.of(),
                postgres,
                HealthProbes.tcp(settings.host(), postgresPort),
                "postgresql://" + settings.host() + ":" + postgresPort + "/" + CATALOG_DATABASE);
    }

    /** Publishes exactly one container port, on the stack's address (see the class comment). */
    private void publish(GenericContainer<?> container, int hostPort, int containerPort) {
        publish(container, Map.of(hostPort, containerPort));
    }

    /** Publishes exactly these container ports, each on its host port (the keys), on the stack's address. */
    private void publish(GenericContainer<?> container, Map<Integer, Integer> containerPortByHostPort) {
        container.setExposedPorts(List.copyOf(containerPortByHostPort.values()));
        container.setPortBindings(containerPortByHostPort.entrySet().stream()
                .map(port -> ContainerDefinitions.portBinding(settings.host(), port.getKey(), port.getValue()))
                .toList());
    }

    /** Runs {@code command} in the container, failing with its output unless it succeeds. */
    static void execute(GenericContainer<?> container, List<String> command) {
        try {
            ExecResult result = container.execInContainer(command.toArray(String[]::new));
            if (result.getExitCode() != 0) {
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed in "
                        + container.getDockerImageName() + " with exit code " + result.getExitCode() + ": "
                        + result.getStderr() + result.getStdout());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run a command in " + container.getDockerImageName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while setting up " + container.getDockerImageName(), e);
        }
    }

    private static boolean isReady(TrinoHealthCheck health) {
        try {
            return health.isReady();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort(StackSettings settings) {
        return FreePorts.pick(
                settings.hostAddress(), Set.copyOf(settings.ports().values()));
    }
}
