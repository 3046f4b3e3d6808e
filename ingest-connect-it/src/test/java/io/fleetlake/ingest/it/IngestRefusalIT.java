package io.fleetlake.ingest.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.ingest.ConnectWorker;
import io.fleetlake.ingest.ConnectWorkerConfig;
import io.fleetlake.ingest.IngestHealth;
import io.fleetlake.ingest.TaskProgress;
import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Size limits at the Connect hop, on the real servers: HiveMQ (configured to accept packets up to 4 MiB, so that it lets
 * through what Kafka cannot take, as in the report of a 1 MiB + 1 payload that blocked ingestion), a Kafka broker
 * whose raw topic refuses records above 60,000 bytes, and a Connect worker with the MQTT source.
 *
 * <p>Every message the broker acknowledged ends in Kafka exactly where it should: records up to the producer's limit in
 * the raw topic (one of exactly the limit included), larger ones and the ones the broker refuses as bounded dead letters;
 * the session moves on (the messages after them arrive) and holds nothing unacknowledged (a message published after
 * a worker restart arrives without any redelivery before it).
 */
class IngestRefusalIT {
    private static final int MAX_RECORD_SIZE = 200_000;
    private static final int TOPIC_MAX_MESSAGE_BYTES = 60_000;

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
        mqtt = ServerProcessUnderTest.mqtt(directory, Map.of("mqtt.max-packet-size", Integer.toString(4 << 20)));
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
    void recordsKafkaCannotTakeAreDeadLetteredAndTheSessionMovesOn() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.address()))) {
            admin.createTopics(List.of(new NewTopic(Topics.RAW_POSITIONS, 2, (short) 1)
                            .configs(Map.of(
                                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(TOPIC_MAX_MESSAGE_BYTES)))))
                    .all()
                    .get();
        }
        byte[] oneMebibyteAndOne = new byte[(1 << 20) + 1];
        byte[] refusedByTheTopic = new byte[TOPIC_MAX_MESSAGE_BYTES + 1000];
        // Large, but within every limit: written to the raw topic between the two refused ones.
        byte[] justBelowTheTopicLimit = new byte[TOPIC_MAX_MESSAGE_BYTES - 500];
        oneMebibyteAndOne[0] = 'B';
        refusedByTheTopic[0] = 'T';

        try (ConnectWorker worker = startWorker();
                LedgerPublisher publisher = new LedgerPublisher(mqtt.address(), "refusal", 1, identity)) {
            publisher.publish(0, "VH-1", "before");
            publisher.publish(0, "fleet/VH-BIG/position", oneMebibyteAndOne, "one-mebibyte-and-one");
            publisher.publish(0, "fleet/VH-TOPIC/position", refusedByTheTopic, "refused-by-the-topic");
            publisher.publish(0, "fleet/VH-FITS/position", justBelowTheTopicLimit, "just-below-the-topic-limit");
            publisher.publish(0, "VH-1", "after");
            publisher.awaitAll(Duration.ofMinutes(1));
            assertThat(publisher.acknowledged()).hasSize(5);

            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                assertThat(rawKeys()).containsExactlyInAnyOrder("VH-1", "VH-FITS", "VH-1");
                assertThat(deadLetters()).hasSize(2);
            });
            assertThat(rawValues()).contains("before", "after");

            Map<String, ConsumerRecord<byte[], byte[]>> deadLetters = new TreeMap<>();
            deadLetters().forEach(record -> deadLetters.put(new String(record.key(), UTF_8), record));
            ConsumerRecord<byte[], byte[]> tooLarge = deadLetters.get("VH-BIG");
            assertThat(header(tooLarge, MessageHeaders.DLQ_REASON)).isEqualTo("INGEST_REFUSED");
            assertThat(header(tooLarge, MessageHeaders.DLQ_ORIGINAL_SIZE)).isEqualTo("1048577");
            assertThat(header(tooLarge, MessageHeaders.DLQ_TRUNCATED)).isEqualTo("true");
            assertThat(header(tooLarge, MessageHeaders.MQTT_TOPIC)).isEqualTo("fleet/VH-BIG/position");
            assertThat(header(tooLarge, MessageHeaders.DLQ_DETAIL))
                    .contains("1,048,577 bytes")
                    .contains("connect.max-record-size = 200,000 bytes");
            assertThat(tooLarge.value()).hasSize(4096).startsWith((byte) 'B');
            assertThat(serializedSize(tooLarge)).isLessThan(MAX_RECORD_SIZE);

            ConsumerRecord<byte[], byte[]> refused = deadLetters.get("VH-TOPIC");
            assertThat(header(refused, MessageHeaders.DLQ_REASON)).isEqualTo("INGEST_REFUSED");
            assertThat(header(refused, MessageHeaders.DLQ_ORIGINAL_SIZE))
                    .isEqualTo(Integer.toString(refusedByTheTopic.length));
            assertThat(header(refused, MessageHeaders.DLQ_DETAIL)).contains("Kafka refused the record");
            assertThat(refused.value()).hasSize(4096).startsWith((byte) 'T');

            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                IngestHealth health = worker.health();
                assertThat(health.healthy()).as(health.toJson()).isTrue();
                TaskProgress task = health.progress().get(0);
                assertThat(task.written()).isEqualTo(3);
                assertThat(task.deadLettered()).isEqualTo(2);
                assertThat(task.pending()).isZero();
            });
            assertThat(healthEndpoint(worker)).isEqualTo(200);
            assertThat(worker.supervisorRestarts()).isZero();
        }

        try (ConnectWorker restarted = startWorker();
                LedgerPublisher publisher = new LedgerPublisher(mqtt.address(), "refusal-after-restart", 1, identity)) {
            publisher.publish(0, "VH-2", "marker-after-restart");
            publisher.awaitAll(Duration.ofMinutes(1));
            await().atMost(Duration.ofMinutes(2)).until(() -> rawValues().contains("marker-after-restart"));

            assertThat(deadLetters())
                    .as("nothing was redelivered before the marker")
                    .hasSize(2);
            assertThat(rawValues()).containsOnlyOnce("before", "after");
        }
    }

    private static ConnectWorker startWorker() {
        ConnectWorker worker = new ConnectWorker(ConnectWorkerConfig.from(ConfigSource.of(secrets.plus(Map.of(
                "connect.port",
                "0",
                "connect.bootstrap-servers",
                kafka.address(),
                "connect.group-id",
                "refusal-test",
                "connect.supervision-interval",
                "2s",
                "connect.max-record-size",
                Integer.toString(MAX_RECORD_SIZE),
                "mqtt.server-uri",
                "tcp://" + mqtt.address())))));
        try {
            worker.start();
        } catch (RuntimeException e) {
            worker.close();
            throw e;
        }
        return worker;
    }

    private static int healthEndpoint(ConnectWorker worker) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(worker.restUri() + "ingest/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).contains("\"healthy\" : ");
        return response.statusCode();
    }

    private static List<String> rawKeys() {
        return KafkaTopicReader.readAll(kafka.address(), Topics.RAW_POSITIONS).stream()
                .map(record -> new String(record.key(), UTF_8))
                .toList();
    }

    private static List<String> rawValues() {
        return KafkaTopicReader.readAll(kafka.address(), Topics.RAW_POSITIONS).stream()
                .map(record -> new String(record.value(), UTF_8))
                .toList();
    }

    private static List<ConsumerRecord<byte[], byte[]>> deadLetters() {
        return KafkaTopicReader.readAll(kafka.address(), Topics.DLQ_POSITIONS);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }

    private static int serializedSize(ConsumerRecord<byte[], byte[]> record) {
        return org.apache.kafka.common.record.AbstractRecords.estimateSizeInBytesUpperBound(
                org.apache.kafka.common.record.RecordBatch.CURRENT_MAGIC_VALUE,
                org.apache.kafka.common.record.CompressionType.NONE,
                record.key(),
                record.value(),
                record.headers().toArray());
    }
}
