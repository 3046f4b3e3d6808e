package io.fleetlake.servers.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerIT {
    private static final String TOPIC = "gps.raw.positions";

    @TempDir
    Path dataDirectory;

    @Test
    void committedTransactionIsReadAndSurvivesARestart() throws Exception {
        int[] ports = freePorts();
        KafkaBrokerConfig config = new KafkaBrokerConfig(
                "127.0.0.1",
                ports[0],
                ports[1],
                dataDirectory,
                1,
                KafkaBrokerConfig.DEFAULT_CLUSTER_ID,
                2,
                Duration.ofDays(7),
                false);

        try (KafkaBroker broker = new KafkaBroker(config)) {
            broker.start();
            assertThat(createTopicWithBrokerDefaults(broker.bootstrapServers()).partitions())
                    .hasSize(2);
            produceTransactions(broker.bootstrapServers());

            assertThat(readCommitted(broker.bootstrapServers())).containsExactly("vehicle-7=committed");
        }

        try (KafkaBroker broker = new KafkaBroker(config)) {
            broker.start();

            assertThat(readCommitted(broker.bootstrapServers())).containsExactly("vehicle-7=committed");
        }
    }

    private static TopicDescription createTopicWithBrokerDefaults(String bootstrapServers)
            throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Optional.empty(), Optional.empty())))
                    .all()
                    .get();
            return admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC);
        }
    }

    private static void produceTransactions(String bootstrapServers) {
        Map<String, Object> properties = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "kafka-broker-it",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(TOPIC, "vehicle-7", "committed"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(TOPIC, "vehicle-7", "aborted"));
            producer.flush();
            producer.abortTransaction();
        }
    }

    /** Every committed record, read up to the last stable offset of each partition. */
    private static List<String> readCommitted(String bootstrapServers) {
        Map<String, Object> properties = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
            Set<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                    .map(partition -> new TopicPartition(TOPIC, partition.partition()))
                    .collect(Collectors.toSet());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions);
            List<String> values = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.key() + "=" + record.value());
                }
                return endOffsets.entrySet().stream()
                        .allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
            });
            return values;
        }
    }

    private static int[] freePorts() throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket first = new ServerSocket(0, 1, loopback);
                ServerSocket second = new ServerSocket(0, 1, loopback)) {
            return new int[] {first.getLocalPort(), second.getLocalPort()};
        }
    }
}
