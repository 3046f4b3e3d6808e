package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * The lag of a consumer group, per partition, in records and in seconds.
 *
 * <p><b>Records</b>: the partition's last stable offset (what a read_committed consumer can reach) minus the offset the
 * group committed. <b>Seconds</b>: the age of the oldest record the group has not committed past, that is now minus
 * the timestamp of the first record at or after the committed offset; 0 when nothing waits. A group commits when it
 * chooses to (Flink at each completed checkpoint), so a healthy group's lag in seconds saws between the time a commit
 * takes and one commit interval plus that time.
 *
 * <p>Keeps one Kafka admin client and one consumer (no group of its own) open until {@link #close()}.
 */
public final class ConsumerLagInspector implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final int MAX_POLLS_PER_PARTITION = 6;

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;

    public ConsumerLagInspector(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /** @param clientSecurity security settings of both clients, such as a SASL login ({@code KafkaSaslCredentials}) */
    public ConsumerLagInspector(String bootstrapServers, Map<String, String> clientSecurity) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(clientSecurity, "clientSecurity is null");
        Properties adminProperties = new Properties();
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        adminProperties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        adminProperties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        adminProperties.putAll(clientSecurity);
        this.admin = Admin.create(adminProperties);
        Properties consumerProperties =
                KafkaInspector.consumerProperties("fleet-lag-inspector-", bootstrapServers, clientSecurity);
        consumerProperties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        this.consumer = new KafkaConsumer<>(consumerProperties);
    }

    /**
     * The group's lag on every partition it has committed an offset for, sorted by topic and partition; empty when
     * the group has committed nothing (it never ran, or its offsets expired).
     *
     * @throws InspectionException when Kafka cannot be asked
     */
    public List<PartitionLag> lag(String group, Instant now) {
        requireNonNull(group, "group is null");
        requireNonNull(now, "now is null");
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            committed.forEach((partition, offset) -> {
                if (offset != null) {
                    request.put(partition, OffsetSpec.latest());
                }
            });
            if (request.isEmpty()) {
                return List.of();
            }
            Map<TopicPartition, ListOffsetsResultInfo> ends = admin.listOffsets(
                            request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<PartitionLag> lags = new ArrayList<>();
            for (TopicPartition partition : request.keySet()) {
                long committedOffset = committed.get(partition).offset();
                long end = ends.get(partition).offset();
                long records = Math.max(0, end - committedOffset);
                Duration age = records == 0 ? Duration.ZERO : oldestWaitingAge(partition, committedOffset, end, now);
                lags.add(new PartitionLag(
                        group, partition.topic(), partition.partition(), committedOffset, end, records, age));
            }
            lags.sort(Comparator.comparing(PartitionLag::topic).thenComparingInt(PartitionLag::partition));
            return lags;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw new InspectionException(
                    "Cannot read the offsets of consumer group " + group + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectionException("Interrupted while reading the offsets of consumer group " + group, e);
        }
    }

    /**
     * The sum of the topic's end offsets over its partitions: grows with every record (and transaction marker).
     *
     * @throws InspectionException when Kafka cannot be asked
     */
    public long endOffsets(String topic) {
        requireNonNull(topic, "topic is null");
        try {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicPartition partition : partitions(topic)) {
                latest.put(partition, OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).values().stream()
                    .mapToLong(ListOffsetsResultInfo::offset)
                    .sum();
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw new InspectionException("Cannot read the end offsets of " + topic + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectionException("Interrupted while reading the end offsets of " + topic, e);
        }
    }

    private List<TopicPartition> partitions(String topic)
            throws ExecutionException, InterruptedException, TimeoutException {
        return admin
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .get(topic)
                .partitions()
                .stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
    }

    /**
     * Records appended to the topic at or after {@code since} (by record timestamp), summed over its partitions:
     * offsets, so transaction markers count too (one per transaction and partition).
     *
     * @throws InspectionException when Kafka cannot be asked
     */
    public long appendedSince(String topic, Instant since) {
        requireNonNull(topic, "topic is null");
        requireNonNull(since, "since is null");
        try {
            List<TopicPartition> partitions = partitions(topic);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> atTime = new HashMap<>();
            for (TopicPartition partition : partitions) {
                latest.put(partition, OffsetSpec.latest());
                atTime.put(partition, OffsetSpec.forTimestamp(since.toEpochMilli()));
            }
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, ListOffsetsResultInfo> starts =
                    admin.listOffsets(atTime).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long appended = 0;
            for (TopicPartition partition : partitions) {
                long end = ends.get(partition).offset();
                long start = starts.get(partition).offset();
                // No record at or after the time: the offset is -1, nothing was appended since.
                appended += start < 0 ? 0 : Math.max(0, end - start);
            }
            return appended;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw new InspectionException("Cannot read the offsets of " + topic + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectionException("Interrupted while reading the offsets of " + topic, e);
        }
    }

    /** Now minus the timestamp of the first committed record at or after {@code from}; 0 when only markers wait. */
    private Duration oldestWaitingAge(TopicPartition partition, long from, long end, Instant now) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        for (int poll = 0; poll < MAX_POLLS_PER_PARTITION && consumer.position(partition) < end; poll++) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                Duration age = Duration.between(Instant.ofEpochMilli(record.timestamp()), now);
                return age.isNegative() ? Duration.ZERO : age;
            }
        }
        return Duration.ZERO;
    }

    @Override
    public void close() {
        try {
            consumer.close(Duration.ofSeconds(5));
        } finally {
            admin.close(Duration.ofSeconds(5));
        }
    }

    /**
     * One partition's lag.
     *
     * @param committedOffset the next offset the group will read
     * @param endOffset the partition's last stable offset
     * @param records records (and transaction markers) between the two
     * @param age how long the oldest record the group has not committed past has waited; 0 when none
     */
    public record PartitionLag(
            String group,
            String topic,
            int partition,
            long committedOffset,
            long endOffset,
            long records,
            Duration age) {
        public PartitionLag {
            requireNonNull(group, "group is null");
            requireNonNull(topic, "topic is null");
            requireNonNull(age, "age is null");
        }
    }
}
