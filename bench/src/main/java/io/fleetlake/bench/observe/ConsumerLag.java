package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The lag of a consumer group on a topic: end offsets minus the group's committed offsets, summed over partitions.
 * The pipeline commits its offsets when a checkpoint completes, so the lag seen here moves in checkpoint steps.
 */
public final class ConsumerLag implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;

    public ConsumerLag(String bootstrapServers) {
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                requireNonNull(bootstrapServers, "bootstrapServers is null")));
    }

    /** Records of the topic the group has not committed yet; a partition without a commit counts from its start. */
    public long lag(String group, String topic) throws InterruptedException {
        Map<TopicPartition, Long> end = endOffsets(topic);
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
            OffsetAndMetadata offset = committed.get(partition.getKey());
            lag += partition.getValue() - (offset == null ? 0 : offset.offset());
        }
        return lag;
    }

    /** The current end (latest) offset of every partition of the topic. */
    public Map<TopicPartition, Long> endOffsets(String topic) throws InterruptedException {
        TopicDescription description =
                get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
        Map<TopicPartition, OffsetSpec> request = description.partitions().stream()
                .collect(Collectors.toMap(
                        info -> new TopicPartition(topic, info.partition()), info -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> offsets =
                get(admin.listOffsets(request).all());
        return offsets.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue()
                .offset()));
    }

    /** Sets a group's committed offsets, for example where a consumer that has not started yet should begin. */
    public void commitOffsets(String group, Map<TopicPartition, Long> offsets) throws InterruptedException {
        get(admin.alterConsumerGroupOffsets(
                        group,
                        offsets.entrySet().stream()
                                .collect(Collectors.toMap(
                                        Map.Entry::getKey, entry -> new OffsetAndMetadata(entry.getValue()))))
                .all());
    }

    private static <T> T get(KafkaFuture<T> future) throws InterruptedException {
        try {
            return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "Kafka admin request failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka admin request took longer than " + TIMEOUT.toSeconds() + " s", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
