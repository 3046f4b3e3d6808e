package io.fleetlake.deployment;

import static io.fleetlake.deployment.ServiceConfigurations.CONNECT;
import static io.fleetlake.deployment.ServiceConfigurations.FLEET_EXPORTER;
import static io.fleetlake.deployment.ServiceConfigurations.FLINK_JOB_MANAGER;
import static io.fleetlake.deployment.ServiceConfigurations.KAFKA;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.KafkaSaslCredentials;
import io.fleetlake.deployment.ComposeKafka.Grant;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.ingest.ConnectWorkerConfig;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.exporter.ExporterConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose file's Kafka clients log in as the principals that {@code deploy/kafka/acls.conf} grants their job to
 * (ComposeKafkaSecurityIT proves those grants on the real broker): each service's username and password, read by the
 * service's own configuration class from its compose environment, are a principal of acls.conf and the password the
 * broker sets for it; what the service does (its topics, group, transactional ids, as its configuration names them) is
 * granted to that principal. The broker's start script is run with {@code --render-only}: the PLAINTEXT listeners stay
 * on the loopback interface and every secret file is owner-only.
 */
class ComposeKafkaPrincipalsTest {
    private static final String START_SCRIPT = "deploy/kafka/start.sh";

    private final ComposeFile compose = Repository.exampleDeployment();
    private final List<Grant> grants = ComposeKafka.grants();

    @Test
    void connectLogsInAsAPrincipalGrantedItsPositionsDeadLettersGroupAndInternalTopics() {
        ConnectWorkerConfig connect = (ConnectWorkerConfig) ServiceConfigurations.read(CONNECT, source(CONNECT));
        KafkaSaslCredentials login = connect.kafkaCredentials().orElseThrow();

        assertBrokerPassword(login, "KAFKA_CONNECT_PASSWORD");
        String user = login.username();
        assertGranted(user, "Write", "topic", Topics.RAW_POSITIONS);
        assertGranted(user, "Write", "topic", Topics.DLQ_POSITIONS);
        assertGranted(user, "IdempotentWrite", "cluster", "kafka-cluster");
        assertGranted(user, "Read", "group", connect.groupId());
        Map<String, String> worker = connect.workerProperties();
        for (String internal : List.of(
                worker.get("config.storage.topic"),
                worker.get("offset.storage.topic"),
                worker.get("status.storage.topic"))) {
            for (String operation : List.of("Read", "Write", "Create", "Describe", "DescribeConfigs")) {
                assertGranted(user, operation, "topic", internal);
            }
        }
        assertNotGranted(user, "Read", "topic", Topics.DLQ_POSITIONS);
        // Every client of the worker logs in, not only its own: the connector's producer writes the positions.
        assertThat(worker).containsKeys("sasl.jaas.config", "producer.sasl.jaas.config", "admin.sasl.jaas.config");
    }

    @Test
    void thePipelineLogsInAsAPrincipalGrantedItsSourceGroupAndTransactionalSinks() {
        FleetPipelineConfig pipeline =
                (FleetPipelineConfig) ServiceConfigurations.read(FLINK_JOB_MANAGER, source(FLINK_JOB_MANAGER));
        KafkaSaslCredentials login = pipeline.kafkaCredentials().orElseThrow();

        assertBrokerPassword(login, "KAFKA_PIPELINE_PASSWORD");
        String user = login.username();
        assertGranted(user, "Read", "topic", Topics.RAW_POSITIONS);
        assertGranted(user, "Read", "group", pipeline.consumerGroup());
        assertGranted(user, "Write", "topic", Topics.DLQ_POSITIONS);
        assertGranted(user, "Write", "topic", Topics.LATE_POSITIONS);
        assertGranted(user, "IdempotentWrite", "cluster", "kafka-cluster");
        // The dead-letter sink's ids start with the prefix, the late-positions sink's with late-<prefix>.
        assertGranted(user, "Write", "transactional-id", pipeline.transactionalIdPrefix() + "-0-1");
        assertGranted(user, "Write", "transactional-id", "late-" + pipeline.transactionalIdPrefix() + "-0-1");
        assertNotGranted(user, "Write", "topic", Topics.RAW_POSITIONS);
    }

    @Test
    void theExporterLogsInAsAPrincipalThatReadsButWritesNothing() {
        ExporterConfig exporter = (ExporterConfig) ServiceConfigurations.read(FLEET_EXPORTER, source(FLEET_EXPORTER));
        KafkaSaslCredentials login = exporter.sources().kafkaCredentials().orElseThrow();

        assertBrokerPassword(login, "KAFKA_MONITOR_PASSWORD");
        String user = login.username();
        for (String group : exporter.sources().consumerGroups()) {
            assertGranted(user, "Describe", "group", group);
        }
        assertGranted(user, "Describe", "topic", Topics.RAW_POSITIONS);
        assertGranted(user, "Read", "topic", Topics.RAW_POSITIONS);
        assertGranted(user, "Read", "topic", Topics.DLQ_POSITIONS);
        assertThat(grants)
                .filteredOn(grant -> grant.user().equals(user))
                .extracting(Grant::operation)
                .containsOnly("Describe", "Read");
    }

    @Test
    void everyPrincipalHasItsOwnPasswordAndOnlyTheSetUpJobIsAdministrator() {
        Map<String, String> broker = compose.environment(KAFKA);
        List<String> passwords = List.of(
                broker.get("KAFKA_ADMIN_PASSWORD"),
                broker.get("KAFKA_CONNECT_PASSWORD"),
                broker.get("KAFKA_PIPELINE_PASSWORD"),
                broker.get("KAFKA_MONITOR_PASSWORD"));

        assertThat(passwords).doesNotHaveDuplicates().allMatch(password -> !password.isBlank());
        for (String service : compose.serviceNames()) {
            // The preflight only checks that it is no placeholder.
            if (!Set.of(KAFKA, "kafka-init", "preflight").contains(service)) {
                assertThat(compose.environment(service).values())
                        .as("service %s must not hold the Kafka administrator's password", service)
                        .doesNotContain(broker.get("KAFKA_ADMIN_PASSWORD"));
            }
        }
        assertThat(compose.environment("kafka-init"))
                .containsEntry("KAFKA_ADMIN_PASSWORD", broker.get("KAFKA_ADMIN_PASSWORD"))
                .containsEntry("ACLS_FILE", "/fleet/acls.conf");
        assertThat(compose.volumes("kafka-init")).contains("./deploy/kafka/acls.conf:/fleet/acls.conf:ro");
        assertThat(compose.volumes(KAFKA)).contains("./deploy/kafka/security.properties:/fleet/security.properties:ro");
    }

    @Test
    void theBrokerRequiresLoginsAndKeepsItsPlaintextListenersOnTheLoopbackInterface(@TempDir Path directory)
            throws IOException, InterruptedException {
        Map<String, String> environment = new TreeMap<>(compose.environment(KAFKA));
        Result result = render(directory, environment);

        assertThat(result.exitCode()).as(result.output()).isZero();
        Properties server = properties(directory.resolve("server.properties"));
        // Only the SASL listener on the network: the PLAINTEXT ones, whose anonymous clients are super users, on
        // loopback.
        assertThat(server.getProperty("listeners"))
                .isEqualTo("SASL_PLAINTEXT://:9092,CONTROLLER://127.0.0.1:9093,LOCAL://127.0.0.1:9094");
        assertThat(server.getProperty("listener.security.protocol.map"))
                .isEqualTo("CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,LOCAL:PLAINTEXT");
        assertThat(server.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:9093");
        assertThat(server.getProperty("advertised.listeners"))
                .isEqualTo("SASL_PLAINTEXT://kafka:9092,LOCAL://127.0.0.1:9094");
        assertThat(server.getProperty("allow.everyone.if.no.acl.found")).isEqualTo("false");
        assertThat(server.getProperty("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config"))
                .contains("password=\"" + environment.get("KAFKA_ADMIN_PASSWORD") + "\";")
                .doesNotContain("${");
        // Every key of security.properties reaches the broker unchanged but for the password.
        Properties security = properties(Repository.file("deploy/kafka/security.properties"));
        for (String key : security.stringPropertyNames()) {
            assertThat(server.getProperty(key))
                    .as(key)
                    .isEqualTo(security.getProperty(key)
                            .replace("${KAFKA_ADMIN_PASSWORD}", environment.get("KAFKA_ADMIN_PASSWORD")));
        }
        assertThat(properties(directory.resolve("scram-fleet-connect.properties"))
                        .getProperty("SCRAM-SHA-512"))
                .isEqualTo("iterations=8192,password=" + environment.get("KAFKA_CONNECT_PASSWORD"));
        try (var files = Files.list(directory)) {
            assertThat(files.toList()).hasSize(6).allSatisfy(file -> assertThat(
                            PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as(file.toString())
                    .isEqualTo("rw-------"));
        }
    }

    @Test
    void theBrokerRefusesAPasswordThatWouldBreakItsJaasLine(@TempDir Path directory)
            throws IOException, InterruptedException {
        Map<String, String> environment = new TreeMap<>(compose.environment(KAFKA));
        environment.put("KAFKA_MONITOR_PASSWORD", "quote\"inside");

        Result result = render(directory, environment);

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("fleet-monitor").doesNotContain("quote\"inside");
        assertThat(directory.resolve("server.properties")).doesNotExist();
    }

    private Result render(Path directory, Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(
                        "sh", Repository.file(START_SCRIPT).toString(), "--render-only")
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        builder.environment().put("KAFKA_FLEET_DIR", directory.toString());
        builder.environment()
                .put(
                        "KAFKA_SECURITY_PROPERTIES",
                        Repository.file("deploy/kafka/security.properties").toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private void assertBrokerPassword(KafkaSaslCredentials login, String brokerVariable) {
        assertThat(login.password())
                .as("the password of %s is the one the broker sets (%s)", login.username(), brokerVariable)
                .isEqualTo(compose.environment(KAFKA).get(brokerVariable));
    }

    private void assertGranted(String user, String operation, String type, String name) {
        assertThat(grants)
                .as("%s may %s %s %s (%s)", user, operation, type, name, ComposeKafka.ACLS)
                .anyMatch(grant -> grant.allows(user, operation, type, name));
    }

    private void assertNotGranted(String user, String operation, String type, String name) {
        assertThat(grants)
                .as("%s may not %s %s %s (%s)", user, operation, type, name, ComposeKafka.ACLS)
                .noneMatch(grant -> grant.allows(user, operation, type, name));
    }

    private ConfigSource source(String service) {
        return ConfigSource.empty().withEnvironment(compose.environment(service));
    }

    private static Properties properties(Path file) throws IOException {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }

    private record Result(int exitCode, String output) {}
}
