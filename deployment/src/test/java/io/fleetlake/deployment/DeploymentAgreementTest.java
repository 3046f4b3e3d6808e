package io.fleetlake.deployment;

import static io.fleetlake.deployment.ServiceConfigurations.CATALOG;
import static io.fleetlake.deployment.ServiceConfigurations.CONNECT;
import static io.fleetlake.deployment.ServiceConfigurations.DASHBOARD;
import static io.fleetlake.deployment.ServiceConfigurations.FLINK_JOB_MANAGER;
import static io.fleetlake.deployment.ServiceConfigurations.FLINK_TASK_MANAGER;
import static io.fleetlake.deployment.ServiceConfigurations.GEOCODE;
import static io.fleetlake.deployment.ServiceConfigurations.MINIO;
import static io.fleetlake.deployment.ServiceConfigurations.MOSQUITTO;
import static io.fleetlake.deployment.ServiceConfigurations.PLANNING;
import static io.fleetlake.deployment.ServiceConfigurations.REDIS;
import static io.fleetlake.deployment.ServiceConfigurations.SIMULATOR;
import static io.fleetlake.deployment.ServiceConfigurations.TABLE_MAINTENANCE;
import static io.fleetlake.deployment.ServiceConfigurations.TRINO;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.catalog.CatalogServerConfig;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.ingest.ConnectWorkerConfig;
import io.fleetlake.ingest.MqttSourceConfig;
import io.fleetlake.model.Topics;
import io.fleetlake.redis.RedisConnections;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.planning.PlanningApiConfig;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The components of docker-compose.yml agree with each other: the Flink pipeline, Trino and the catalog on the catalog
 * URI, the warehouse, the S3 endpoint and its key; the set-up jobs create the buckets and topics the services use; the
 * clients of MQTT, Redis and the planning API point at those services with their credentials. Values are compared as
 * each component resolves them: our services through their configuration classes, Trino and Flink through their
 * properties.
 */
class DeploymentAgreementTest {
    private static final String TRINO_CATALOG = "deploy/trino/etc/catalog/iceberg.properties";
    private static final String MINIO_INIT_SCRIPT = "deploy/minio/minio-init.sh";
    private static final String KAFKA_INIT_SCRIPT = "deploy/kafka/kafka-init.sh";
    private static final String MOSQUITTO_CONFIG = "deploy/mosquitto/mosquitto.conf";
    private static final int MINIO_S3_PORT = 9000;

    private final ComposeFile compose = Repository.exampleDeployment();
    private final FleetPipelineConfig pipeline =
            (FleetPipelineConfig) ServiceConfigurations.read(FLINK_JOB_MANAGER, source(FLINK_JOB_MANAGER));
    private final CatalogServerConfig catalog =
            (CatalogServerConfig) ServiceConfigurations.read(CATALOG, source(CATALOG));
    private final Map<String, String> trino =
            PropertiesFiles.trinoProperties(Repository.file(TRINO_CATALOG), compose.environment(TRINO));
    private final Map<String, String> flink = PropertiesFiles.flinkProperties(
            compose.environment(FLINK_JOB_MANAGER).get("FLINK_PROPERTIES"));

    @Test
    void pipelineAndTrinoUseTheCatalogService() {
        String catalogUri = "http://" + CATALOG + ":" + catalog.port();

        assertThat(pipeline.catalogUri()).isEqualTo(URI.create(catalogUri));
        assertThat(trino).containsEntry("iceberg.rest-catalog.uri", catalogUri);
    }

    @Test
    void pipelineTrinoAndCatalogUseTheSameWarehouse() {
        assertThat(pipeline.warehouse()).isEqualTo(catalog.warehouse());
        assertThat(trino).containsEntry("iceberg.rest-catalog.warehouse", catalog.warehouse());
    }

    @Test
    void pipelineTrinoCatalogAndCheckpointsUseTheSameS3Storage() {
        URI minio = URI.create("http://" + MINIO + ":" + MINIO_S3_PORT);

        assertThat(catalog.s3Storage().endpoint()).contains(minio);
        assertThat(pipeline.s3Endpoint()).isEqualTo(minio);
        assertThat(trino).containsEntry("s3.endpoint", minio.toString());
        assertThat(flink).containsEntry("s3.endpoint", minio.toString());

        assertThat(pipeline.s3Region()).isEqualTo(catalog.s3Storage().region());
        assertThat(trino).containsEntry("s3.region", catalog.s3Storage().region());
    }

    /**
     * Every S3 client uses the key of its own service user, which the set-up job creates with that service's policy
     * (deploy/minio/minio-init.sh: {@code service_user <service> "$S3_<SERVICE>_ACCESS_KEY" ...}).
     */
    @Test
    void everyS3ClientUsesItsOwnServiceUser() throws IOException {
        Map<String, String> setUp = compose.environment("minio-init");
        String script = Files.readString(Repository.file(MINIO_INIT_SCRIPT));
        Map<String, String> geocodeEnvironment = compose.environment(GEOCODE);
        Map<String, String> maintenanceEnvironment = compose.environment(TABLE_MAINTENANCE);

        assertServiceUser(
                setUp,
                script,
                "catalog",
                catalog.s3Storage().accessKey().orElseThrow(),
                catalog.s3Storage().secretKey().orElseThrow());
        assertServiceUser(
                setUp,
                script,
                "pipeline",
                pipeline.s3AccessKey().orElseThrow(),
                pipeline.s3SecretKey().orElseThrow());
        assertServiceUser(setUp, script, "pipeline", flink.get("s3.access-key"), flink.get("s3.secret-key"));
        assertServiceUser(setUp, script, "trino", trino.get("s3.aws-access-key"), trino.get("s3.aws-secret-key"));
        assertServiceUser(
                setUp,
                script,
                "geocode",
                geocodeEnvironment.get("FLEET_SPARK_S3_ACCESS_KEY"),
                geocodeEnvironment.get("FLEET_SPARK_S3_SECRET_KEY"));
        assertServiceUser(
                setUp,
                script,
                "maintenance",
                maintenanceEnvironment.get("FLEET_MAINTENANCE_S3_ACCESS_KEY"),
                maintenanceEnvironment.get("FLEET_MAINTENANCE_S3_SECRET_KEY"));
        List<String> accessKeys = setUp.entrySet().stream()
                .filter(entry -> entry.getKey().endsWith("_ACCESS_KEY"))
                .map(Map.Entry::getValue)
                .toList();
        assertThat(accessKeys)
                .hasSize(5)
                .doesNotHaveDuplicates()
                .doesNotContain(compose.environment(MINIO).get("MINIO_ROOT_USER"));
        assertThat(setUp.get("MC_HOST_local"))
                .isEqualTo("http://" + compose.environment(MINIO).get("MINIO_ROOT_USER") + ":"
                        + compose.environment(MINIO).get("MINIO_ROOT_PASSWORD") + "@" + MINIO + ":" + MINIO_S3_PORT);
    }

    /** Trino may only read the warehouse; the writers may write it, the pipeline also its checkpoint bucket. */
    @Test
    void eachServicesPolicyGrantsOnlyWhatItNeeds() throws IOException {
        assertThat(policyGrants("trino"))
                .isEqualTo(Map.of(
                        "arn:aws:s3:::warehouse", Set.of("s3:ListBucket", "s3:GetBucketLocation"),
                        "arn:aws:s3:::warehouse/*", Set.of("s3:GetObject")));
        Set<String> objectWrites = Set.of("s3:PutObject", "s3:DeleteObject");
        for (String writer : List.of("catalog", "pipeline", "maintenance", "geocode")) {
            Map<String, Set<String>> grants = policyGrants(writer);
            assertThat(grants.get("arn:aws:s3:::warehouse/*")).as(writer).containsAll(objectWrites);
            assertThat(grants.keySet())
                    .as(writer)
                    .allMatch(resource -> resource.startsWith("arn:aws:s3:::warehouse")
                            || writer.equals("pipeline") && resource.startsWith("arn:aws:s3:::flink"));
            assertThat(grants.values().stream().flatMap(Set::stream))
                    .as(writer)
                    .allMatch(action -> action.startsWith("s3:")
                            && !action.contains("*")
                            && !action.contains("Policy")
                            && !action.contains("DeleteBucket"));
        }
        assertThat(policyGrants("pipeline").get("arn:aws:s3:::flink/*")).containsAll(objectWrites);
    }

    private static Map<String, Set<String>> policyGrants(String service) throws IOException {
        String json = Files.readString(Repository.file("deploy/minio/policies/" + service + ".json"));
        Map<String, Object> policy = new org.yaml.snakeyaml.Yaml().load(json);
        Map<String, Set<String>> grants = new java.util.TreeMap<>();
        for (Object statement : (List<?>) policy.get("Statement")) {
            Map<?, ?> map = (Map<?, ?>) statement;
            assertThat(map.get("Effect")).isEqualTo("Allow");
            for (Object resource : (List<?>) map.get("Resource")) {
                Set<String> actions = grants.computeIfAbsent(resource.toString(), key -> new java.util.TreeSet<>());
                ((List<?>) map.get("Action")).forEach(action -> actions.add(action.toString()));
            }
        }
        return grants;
    }

    private static void assertServiceUser(
            Map<String, String> setUp, String script, String service, String accessKey, String secretKey) {
        String variable = "S3_" + service.toUpperCase(java.util.Locale.ROOT);
        assertThat(accessKey).as(service).isEqualTo(setUp.get(variable + "_ACCESS_KEY"));
        assertThat(secretKey).as(service).isEqualTo(setUp.get(variable + "_SECRET_KEY"));
        assertThat(script)
                .contains("service_user " + service + " \"$" + variable + "_ACCESS_KEY\" \"$" + variable
                        + "_SECRET_KEY\"\n");
    }

    @Test
    void setUpJobCreatesTheWarehouseAndCheckpointBuckets() throws IOException {
        String script = Files.readString(Repository.file(MINIO_INIT_SCRIPT));
        List<String> locations = List.of(
                catalog.warehouse(),
                flink.get("execution.checkpointing.dir"),
                flink.get("execution.checkpointing.savepoint-dir"));

        for (String location : locations) {
            assertThat(location).startsWith("s3://");
            assertThat(script)
                    .contains("mc mb --ignore-existing local/"
                            + URI.create(location).getHost() + "\n");
        }
    }

    @Test
    void bothFlinkProcessesShareOneConfiguration() {
        assertThat(compose.environment(FLINK_TASK_MANAGER))
                .containsEntry(
                        "FLINK_PROPERTIES",
                        compose.environment(FLINK_JOB_MANAGER).get("FLINK_PROPERTIES"))
                .containsEntry(
                        "ENABLE_BUILT_IN_PLUGINS",
                        compose.environment(FLINK_JOB_MANAGER).get("ENABLE_BUILT_IN_PLUGINS"));
        assertThat(flink).containsEntry("state.backend.type", "rocksdb");
    }

    @Test
    void setUpJobCreatesEveryTopic() throws IOException, IllegalAccessException {
        String script = Files.readString(Repository.file(KAFKA_INIT_SCRIPT));

        for (String topic : topicNames()) {
            assertThat(script).contains("--topic " + topic + " ");
        }
        assertThat(script)
                .contains("--topic " + Topics.DLQ_REPROCESSED + " --partitions 1 --config" + " cleanup.policy=compact");
    }

    /**
     * Mosquitto's limits: the ingest worker's session queues an outage's messages instead of dropping them, with its
     * memory bounded by the queued bytes, and packets are limited as by the embedded broker (see mosquitto.conf for the
     * budget and for why a device's reconnect burst is absorbed).
     */
    @Test
    void mosquittoQueuesForTheIngestWorkerWithinBoundedMemory() throws IOException {
        List<String> lines = Files.readAllLines(Repository.file(MOSQUITTO_CONFIG));

        assertThat(lines)
                .contains(
                        "max_queued_messages 500000",
                        "max_queued_bytes 536870912",
                        "max_inflight_messages 1000",
                        "max_packet_size 65536");
    }

    @Test
    void mqttClientsUseTheBrokerWithTheirOwnUsers() throws IOException {
        String listenerPort = Files.readAllLines(Repository.file(MOSQUITTO_CONFIG)).stream()
                .filter(line -> line.startsWith("listener "))
                .map(line -> line.substring("listener ".length()).strip())
                .findFirst()
                .orElseThrow();
        Map<String, String> broker = compose.environment(MOSQUITTO);
        ConnectWorkerConfig connect = (ConnectWorkerConfig) ServiceConfigurations.read(CONNECT, source(CONNECT));
        FleetSimulatorConfig simulator =
                (FleetSimulatorConfig) ServiceConfigurations.read(SIMULATOR, source(SIMULATOR));
        String brokerUri = "tcp://" + MOSQUITTO + ":" + listenerPort;

        assertThat(connect.connectorSettings())
                .containsEntry(MqttSourceConfig.SERVER_URI, brokerUri)
                .containsEntry(MqttSourceConfig.USERNAME, broker.get("MQTT_INGEST_USERNAME"))
                // A reference the worker's env config provider resolves, so that Connect's REST API shows no secret.
                .containsEntry(MqttSourceConfig.PASSWORD, "${env:MQTT_INGEST_SECRET}");
        assertThat(compose.environment(CONNECT))
                .containsEntry("MQTT_INGEST_SECRET", broker.get("MQTT_INGEST_PASSWORD"));
        assertThat(simulator.mqttUri()).isEqualTo(URI.create(brokerUri));
        assertThat(simulator.mqttUsername()).contains(broker.get("MQTT_SIMULATOR_USERNAME"));
        assertThat(simulator.mqttPassword()).contains(broker.get("MQTT_SIMULATOR_PASSWORD"));
        assertThat(compose.environment("mosquitto-exporter"))
                .containsEntry("MQTT_USER", broker.get("MQTT_MONITOR_USERNAME"))
                .containsEntry("MQTT_PASS", broker.get("MQTT_MONITOR_PASSWORD"));
    }

    /**
     * MQTT identity in compose: no anonymous client, a password and an ACL file, a TLS listener for devices, and only
     * that listener published on the host (the plaintext one stays on the compose network for the services).
     */
    @Test
    void mosquittoRefusesAnonymousClientsEnforcesGrantsAndPublishesOnlyItsTlsListener() throws IOException {
        List<String> lines = Files.readAllLines(Repository.file(MOSQUITTO_CONFIG));

        assertThat(lines)
                .contains(
                        "allow_anonymous false",
                        "password_file /mosquitto/auth/password_file",
                        "acl_file /mosquitto/auth/acl_file",
                        "listener 1883",
                        "listener 8883",
                        "certfile /mosquitto/tls/server.pem",
                        "keyfile /mosquitto/tls/server-key.pem",
                        "use_username_as_clientid true",
                        "max_connections 10000",
                        "persistent_client_expiration 7d",
                        "max_queued_bytes 536870912",
                        "memory_limit 1073741824");
        // The device listener on DEVICE_PUBLISH_ADDRESS (every interface in the example), 1883 not at all.
        assertThat(compose.ports(MOSQUITTO)).containsExactly("0.0.0.0:8883:8883");
        assertThat(compose.environment(MOSQUITTO).get("SIMULATOR_VEHICLES"))
                .isEqualTo(compose.environment(SIMULATOR).get("FLEET_SIMULATOR_VEHICLES"));
    }

    @Test
    void pipelineDashboardAndExporterUseTheRedisServiceAsTheirRoles() {
        Map<String, String> redis = compose.environment(REDIS);

        assertThat(pipeline.redisUri())
                .isEqualTo(RedisConnections.uri(REDIS, 6379, RedisRole.PIPELINE, redis.get("REDIS_PIPELINE_PASSWORD")));
        assertThat(compose.environment(DASHBOARD))
                .containsEntry(
                        "FLEET_DASHBOARD_REDIS_URI",
                        RedisConnections.uri(REDIS, 6379, RedisRole.DASHBOARD, redis.get("REDIS_DASHBOARD_PASSWORD"))
                                .toString());
        assertThat(compose.environment(ServiceConfigurations.FLEET_EXPORTER))
                .containsEntry(
                        "FLEET_EXPORTER_REDIS_URI",
                        RedisConnections.uri(REDIS, 6379, RedisRole.MONITOR, redis.get("REDIS_MONITOR_PASSWORD"))
                                .toString());
        // The health check authenticates as the monitor.
        assertThat(redis.get("REDISCLI_AUTH")).isEqualTo(redis.get("REDIS_MONITOR_PASSWORD"));
    }

    @Test
    void pipelineEnrichesFromThePlanningApiOfTheSimulatedFleet() {
        PlanningApiConfig planning = (PlanningApiConfig) ServiceConfigurations.read(PLANNING, source(PLANNING));
        FleetSimulatorConfig simulator =
                (FleetSimulatorConfig) ServiceConfigurations.read(SIMULATOR, source(SIMULATOR));

        assertThat(compose.environment(FLINK_JOB_MANAGER))
                .containsEntry("FLEET_PIPELINE_PLANNING_URI", "http://" + PLANNING + ":" + planning.port());
        assertThat(planning.seed()).isEqualTo(simulator.seed());
        assertThat(planning.vehicles()).isEqualTo(simulator.vehicles());
        assertThat(planning.deliveryStopDuration()).isEqualTo(simulator.deliveryStopDuration());
    }

    @Test
    void dashboardReadsTheServicesOfTheDeployment() {
        assertThat(compose.environment(DASHBOARD))
                .containsEntry("FLEET_DASHBOARD_TRINO_JDBC_URL", "jdbc:trino://" + TRINO + ":8443/iceberg")
                .containsEntry("FLEET_DASHBOARD_FLINK_REST_URI", "http://" + FLINK_JOB_MANAGER + ":8081");
    }

    private ConfigSource source(String service) {
        return ConfigSource.empty().withEnvironment(compose.environment(service));
    }

    private static List<String> topicNames() throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field field : Topics.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }
        assertThat(names).as("topic names in %s", Topics.class.getName()).isNotEmpty();
        return names;
    }
}
