package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads whole topics as a read_committed consumer, the way the pipeline sees them. */
public final class KafkaInspector {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration PARTITIONS_TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final Map<String, String> clientSecurity;

    public KafkaInspector(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /** @param clientSecurity security settings of the consumer, such as a SASL login ({@code KafkaSaslCredentials}) */
    public KafkaInspector(String bootstrapServers, Map<String, String> clientSecurity) {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.clientSecurity = Map.copyOf(requireNonNull(clientSecurity, "clientSecurity is null"));
    }

    /** Every committed record of the topic, from the beginning to the current end. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        forEachRecord(topic, records::add);
        return records;
    }

    /** Hands every committed record of the topic, from the beginning to the current end, to the action. */
    public void forEachRecord(String topic, Consumer<ConsumerRecord<byte[], byte[]>> action) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = TopicRange.partitions(consumer, topic, PARTITIONS_TIMEOUT);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (TopicRange.unread(consumer, partitions, end)) {
                consumer.poll(POLL_TIMEOUT).forEach(action);
            }
        }
    }

    /**
     * The newest timestamp among the committed records at the end of each partition of the topic; empty when the
     * topic holds no record. Reads only the last records of each partition.
     */
    public Optional<Instant> newestRecordTime(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = TopicRange.partitions(consumer, topic, PARTITIONS_TIMEOUT);
            Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long newest = Long.MIN_VALUE;
            for (TopicPartition partition : partitions) {
                consumer.assign(List.of(partition));
                // A transaction's commit marker takes an offset too: look back far enough to find a record.
                consumer.seek(partition, Math.max(beginning.get(partition), end.get(partition) - 64));
                while (consumer.position(partition) < end.get(partition)) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                        newest = Math.max(newest, record.timestamp());
                    }
                }
            }
            return newest == Long.MIN_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(newest));
        }
    }

    public long count(String topic) {
        return readAll(topic).size();
    }

    private Properties consumerProperties() {
        return consumerProperties("fleet-inspector-", bootstrapServers, clientSecurity);
    }

    /**
     * Properties of a consumer that reads as the pipeline does (read_committed, byte arrays) without a group: every
     * read assigns its partitions and seeks, commits nothing, and a principal that may read a topic need not own a
     * group (the compose deployment's monitor owns none). The one recipe of every inspector's consumer.
     *
     * @param clientIdPrefix the start of the client id, made unique by a random suffix
     * @param clientSecurity security settings such as a SASL login ({@code KafkaSaslCredentials}), added last
     */
    static Properties consumerProperties(
            String clientIdPrefix, String bootstrapServers, Map<String, String> clientSecurity) {
        requireNonNull(clientIdPrefix, "clientIdPrefix is null");
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(clientSecurity, "clientSecurity is null");
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientIdPrefix + UUID.randomUUID());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.putAll(clientSecurity);
        return properties;
    }
}
