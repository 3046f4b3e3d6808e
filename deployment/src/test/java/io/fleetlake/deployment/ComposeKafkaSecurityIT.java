package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.model.Topics;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose deployment's Kafka security on the real broker (Kafka's own server, as the embedded stack runs it):
 * started with exactly {@code deploy/kafka/security.properties} (SASL/SCRAM-SHA-512, StandardAuthorizer) and the grants
 * of {@code deploy/kafka/acls.conf}, created as the compose set-up would, from those two files. Anonymous clients and
 * wrong passwords are refused; each service principal can do its job and is refused beyond it.
 */
class ComposeKafkaSecurityIT {
    private static final String ADMIN = "fleet-admin";
    private static final String CONNECT = "fleet-connect";
    private static final String PIPELINE = "fleet-pipeline";
    private static final String MONITOR = "fleet-monitor";
    private static final Map<String, String> PASSWORDS = Map.of(
            ADMIN, "admin-password-for-the-test-0123456789",
            CONNECT, "connect-password-for-the-test-0123456789",
            PIPELINE, "pipeline-password-for-the-test-012345678",
            MONITOR, "monitor-password-for-the-test-0123456789");

    @TempDir
    static Path directory;

    private static KafkaRaftServer server;
    private static String bootstrapServers;

    @BeforeAll
    static void startTheBrokerAsComposeConfiguresIt() throws Exception {
        int port = ComposeKafka.freePort();
        int controllerPort = ComposeKafka.freePort();
        bootstrapServers = "127.0.0.1:" + port;
        Properties properties = new Properties();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", "1");
        properties.put("listeners", "SASL_PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        properties.put("advertised.listeners", "SASL_PLAINTEXT://" + bootstrapServers);
        properties.put("controller.listener.names", "CONTROLLER");
        properties.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        properties.put("log.dirs", directory.resolve("data").toString());
        for (String key : List.of(
                "offsets.topic.replication.factor",
                "transaction.state.log.replication.factor",
                "transaction.state.log.min.isr",
                "share.coordinator.state.topic.replication.factor",
                "share.coordinator.state.topic.min.isr")) {
            properties.put(key, "1");
        }
        properties.put("auto.create.topics.enable", "false");
        properties.putAll(securityProperties());

        // The administrator's credential comes with the storage (kafka-storage format --add-scram): the one principal
        // that exists before any client connects.
        server = ComposeKafka.start(
                properties,
                directory.resolve("data"),
                List.of("SCRAM-SHA-512=[name=" + ADMIN + ",password=" + PASSWORDS.get(ADMIN) + "]"));

        try (Admin admin = Admin.create(client(ADMIN, PASSWORDS.get(ADMIN)))) {
            admin.createTopics(List.of(
                            new NewTopic(Topics.RAW_POSITIONS, 1, (short) 1),
                            new NewTopic(Topics.DLQ_POSITIONS, 1, (short) 1),
                            new NewTopic(Topics.LATE_POSITIONS, 1, (short) 1)))
                    .all()
                    .get();
            List<UserScramCredentialUpsertion> users = new ArrayList<>();
            for (String user : List.of(CONNECT, PIPELINE, MONITOR)) {
                users.add(new UserScramCredentialUpsertion(
                        user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), PASSWORDS.get(user)));
            }
            admin.alterUserScramCredentials(new ArrayList<>(users)).all().get();
            admin.createAcls(acls()).all().get();
        }
    }

    @AfterAll
    static void stopTheBroker() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
        }
    }

    @Test
    void anAnonymousClientIsRefused() {
        Map<String, Object> anonymous = new HashMap<>(client(ADMIN, "unused"));
        anonymous.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
        anonymous.remove("sasl.mechanism");
        anonymous.remove("sasl.jaas.config");

        try (Admin admin = Admin.create(anonymous)) {
            assertThatThrownBy(() -> admin.listTopics().names().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        try (Admin admin = Admin.create(client(CONNECT, "not-the-password-of-fleet-connect"))) {
            assertThatThrownBy(() -> admin.listTopics().names().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void connectWritesPositionsButCannotReadDeadLettersNorGrantItselfMore() throws Exception {
        try (KafkaProducer<String, String> producer = producer(CONNECT)) {
            producer.send(new ProducerRecord<>(Topics.RAW_POSITIONS, "VH-0001", "{}"))
                    .get();
            producer.send(new ProducerRecord<>(Topics.DLQ_POSITIONS, "VH-0001", "{}"))
                    .get();
        }
        try (KafkaConsumer<String, String> consumer = consumer(CONNECT, null)) {
            consumer.assign(List.of(new TopicPartition(Topics.DLQ_POSITIONS, 0)));
            consumer.seekToBeginning(consumer.assignment());
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(5)))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        try (Admin admin = Admin.create(client(CONNECT, PASSWORDS.get(CONNECT)))) {
            AclBinding everything = new AclBinding(
                    new ResourcePattern(ResourceType.TOPIC, "*", PatternType.LITERAL),
                    new AccessControlEntry("User:" + CONNECT, "*", AclOperation.ALL, AclPermissionType.ALLOW));
            assertThatThrownBy(() -> admin.createAcls(List.of(everything)).all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
    }

    @Test
    void thePipelineReadsPositionsInItsGroupAndWritesDeadLettersButNotPositions() throws Exception {
        try (KafkaProducer<String, String> producer = producer(CONNECT)) {
            producer.send(new ProducerRecord<>(Topics.RAW_POSITIONS, "VH-0002", "{\"pipeline\":true}"))
                    .get();
        }
        try (KafkaConsumer<String, String> consumer = consumer(PIPELINE, "fleet-pipeline")) {
            consumer.subscribe(List.of(Topics.RAW_POSITIONS));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!values.contains("{\"pipeline\":true}") && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> values.add(record.value()));
            }
            assertThat(values).contains("{\"pipeline\":true}");
            consumer.commitSync();
        }
        try (KafkaProducer<String, String> producer = producer(PIPELINE)) {
            producer.send(new ProducerRecord<>(Topics.DLQ_POSITIONS, "VH-0002", "{}"))
                    .get();
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.RAW_POSITIONS, "VH-0002", "{}"))
                            .get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaConsumer<String, String> consumer = consumer(PIPELINE, "another-group")) {
            consumer.subscribe(List.of(Topics.RAW_POSITIONS));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(5)))
                    .isInstanceOf(org.apache.kafka.common.errors.GroupAuthorizationException.class);
        }
    }

    @Test
    void theMonitorReadsOffsetsAndDeadLettersButWritesNothing() throws Exception {
        try (Admin admin = Admin.create(client(MONITOR, PASSWORDS.get(MONITOR)))) {
            assertThat(admin.listTopics().names().get()).contains(Topics.RAW_POSITIONS, Topics.DLQ_POSITIONS);
            admin.listConsumerGroupOffsets("fleet-pipeline")
                    .partitionsToOffsetAndMetadata()
                    .get();
        }
        try (KafkaConsumer<String, String> consumer = consumer(MONITOR, null)) {
            // The dead letters (counted by reason) and the positions (the oldest waiting one's age, the newest's time).
            consumer.assign(
                    List.of(new TopicPartition(Topics.DLQ_POSITIONS, 0), new TopicPartition(Topics.RAW_POSITIONS, 0)));
            consumer.seekToBeginning(consumer.assignment());
            consumer.poll(Duration.ofSeconds(2));
        }
        try (KafkaProducer<String, String> producer = producer(MONITOR)) {
            // Refused before the topic: an idempotent producer needs IdempotentWrite on the cluster.
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.DLQ_POSITIONS, "VH-0003", "{}"))
                            .get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
        Map<String, Object> plain = client(MONITOR, PASSWORDS.get(MONITOR));
        plain.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        plain.put(ProducerConfig.ACKS_CONFIG, "1");
        plain.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        plain.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(plain, new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.DLQ_POSITIONS, "VH-0003", "{}"))
                            .get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    /** security.properties with the administrator's password where the broker's environment would put it. */
    private static Properties securityProperties() throws IOException {
        Properties security = new Properties();
        try (Reader reader = Files.newBufferedReader(Repository.file(ComposeKafka.SECURITY))) {
            security.load(reader);
        }
        Properties resolved = new Properties();
        security.forEach((key, value) ->
                resolved.put(key, value.toString().replace("${KAFKA_ADMIN_PASSWORD}", PASSWORDS.get(ADMIN))));
        return resolved;
    }

    private static List<AclBinding> acls() {
        List<AclBinding> bindings =
                ComposeKafka.grants().stream().map(ComposeKafka.Grant::binding).toList();
        assertThat(bindings).allMatch(binding -> !binding.isUnknown());
        return bindings;
    }

    private static Map<String, Object> client(String user, String password) {
        return ComposeKafka.client(bootstrapServers, user, password);
    }

    private static KafkaProducer<String, String> producer(String user) {
        Map<String, Object> properties = client(user, PASSWORDS.get(user));
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String user, String group) {
        Map<String, Object> properties = client(user, PASSWORDS.get(user));
        if (group != null) {
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
    }
}
