package io.fleetlake.ingest.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.ingest.ConnectWorker;
import io.fleetlake.ingest.ConnectWorkerConfig;
import io.fleetlake.ingest.ConnectorStatus;
import io.fleetlake.ingest.IngestHealth;
import io.fleetlake.model.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker rides through a Kafka broker that hangs: while four MQTT clients publish a ledger of positions, the real
 * broker process is paused (SIGSTOP) for 30 seconds, longer than the Connect group's session, then resumed. Every
 * message the MQTT broker acknowledged must be in Kafka (read_committed), and the connector must be RUNNING and moving
 * messages again within a bounded time, without anyone restarting it by hand.
 */
class KafkaPauseIT {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaPauseIT.class);
    private static final Duration PAUSE = Duration.ofSeconds(30);
    private static final int CLIENTS = 4;
    private static final int MESSAGES_PER_CLIENT = 1_500;

    @TempDir
    static Path directory;

    private static BrokerIdentity identity;
    private static WorkerSecrets secrets;

    private static ServerProcessUnderTest kafka;
    private static ServerProcessUnderTest mqtt;

    @BeforeAll
    static void startServers() {
        kafka = ServerProcessUnderTest.kafka(directory);
        identity = new BrokerIdentity(directory);
        secrets = new WorkerSecrets(directory, identity.addIngest());
        mqtt = ServerProcessUnderTest.mqtt(directory, Map.of());
    }

    @AfterAll
    static void stopServers() {
        if (mqtt != null) {
            mqtt.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everyAcknowledgedMessageReachesKafkaAcrossABrokerPause() throws Exception {
        // As the stack's kafka-topics component does before Connect starts: a topic the connector's idempotent producer
        // creates on its first send answered its first batches NOT_LEADER_OR_FOLLOWER, then
        // OUT_OF_ORDER_SEQUENCE_NUMBER
        // for a minute on a loaded machine (CI), before the pause this test is about.
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.address()))) {
            admin.createTopics(List.of(new NewTopic(Topics.RAW_POSITIONS, 2, (short) 1)))
                    .all()
                    .get();
        }
        try (ConnectWorker worker = new ConnectWorker(ConnectWorkerConfig.from(ConfigSource.of(secrets.plus(Map.of(
                        "connect.port",
                        "0",
                        "connect.bootstrap-servers",
                        kafka.address(),
                        "connect.group-id",
                        "pause-test",
                        "connect.supervision-interval",
                        "2s",
                        "mqtt.server-uri",
                        "tcp://" + mqtt.address())))));
                LedgerPublisher publisher = new LedgerPublisher(mqtt.address(), "pause", CLIENTS, identity)) {
            worker.start();
            CompletableFuture<Void> publishing = CompletableFuture.runAsync(() -> publishPaced(publisher));
            await().atMost(Duration.ofMinutes(2)).until(() -> rawIds().size() > 1_000);

            kafka.pause();
            Instant paused = Instant.now();
            try {
                // The fault's duration, not a wait for a condition.
                TimeUnit.MILLISECONDS.sleep(PAUSE.toMillis());
            } finally {
                kafka.resume();
            }
            LOG.info(
                    "Kafka resumed after {} s",
                    Duration.between(paused, Instant.now()).toSeconds());

            publishing.get(5, TimeUnit.MINUTES);
            publisher.awaitAll(Duration.ofMinutes(2));
            Set<String> ledger = publisher.acknowledged();
            assertThat(ledger).hasSize(CLIENTS * MESSAGES_PER_CLIENT);

            await().atMost(Duration.ofMinutes(4))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> assertThat(rawIds()).containsAll(ledger));
            Instant allIn = Instant.now();
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        ConnectorStatus status = worker.connectorStatus().orElseThrow();
                        assertThat(status.running()).as(status.summary()).isTrue();
                        IngestHealth health = worker.health();
                        assertThat(health.healthy()).as(health.toJson()).isTrue();
                    });

            publisher.publish(0, "VH-AFTER", "after-the-pause");
            await().atMost(Duration.ofMinutes(1)).until(() -> rawIds().contains("after-the-pause"));
            List<String> all = rawRecords();
            LOG.info(
                    "Pause of {} s: {} acknowledged messages all in Kafka {} s after the resume ({} records, {}"
                            + " duplicates); supervisor restarts: {}",
                    PAUSE.toSeconds(),
                    ledger.size(),
                    Duration.between(paused.plus(PAUSE), allIn).toSeconds(),
                    all.size(),
                    all.size() - new HashSet<>(all).size(),
                    worker.supervisorRestarts());
        }
    }

    /** Each client publishes its share at about 25 messages per second: the pause happens in the middle. */
    private static void publishPaced(LedgerPublisher publisher) {
        try {
            for (int sequence = 0; sequence < MESSAGES_PER_CLIENT; sequence++) {
                for (int client = 0; client < CLIENTS; client++) {
                    publisher.publish(client, "VH-" + client + "-" + (sequence % 50), client + ":" + sequence);
                }
                if (sequence % 25 == 24) {
                    TimeUnit.SECONDS.sleep(1);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> rawIds() {
        return new HashSet<>(rawRecords());
    }

    private static List<String> rawRecords() {
        return KafkaTopicReader.readAll(kafka.address(), Topics.RAW_POSITIONS).stream()
                .map(record -> new String(record.value(), UTF_8))
                .collect(Collectors.toList());
    }
}
