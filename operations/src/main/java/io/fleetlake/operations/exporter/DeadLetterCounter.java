package io.fleetlake.operations.exporter;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Topics;
import io.fleetlake.operations.inspect.DeadLetterInspector;
import io.fleetlake.operations.inspect.TopicRange;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Counts the dead letters appended to {@value Topics#DLQ_POSITIONS} since the exporter started, by {@code dlq.reason}:
 * the counter behind {@code fleet_dlq_records_total}. Each {@link #update()} reads the committed records added since
 * the previous one (headers only matter). Starts at the topic's end, so a restarted exporter counts from zero again,
 * which Prometheus's {@code rate()} takes for a counter reset.
 */
final class DeadLetterCounter implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    /** Bounds one update; what is left is read by the next one. */
    private static final int MAX_RECORDS_PER_UPDATE = 100_000;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, Long> counts = new TreeMap<>(); // guarded by this
    private List<TopicPartition> partitions = List.of();

    DeadLetterCounter(String bootstrapServers, Map<String, String> clientSecurity) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.consumer = new KafkaConsumer<>(DeadLetterInspector.consumerProperties(bootstrapServers, clientSecurity));
    }

    /**
     * Reads the dead letters appended since the last update.
     *
     * @throws org.apache.kafka.common.KafkaException when Kafka cannot be read; the next update tries again
     */
    synchronized void update() {
        if (partitions.isEmpty()) {
            partitions = TopicRange.partitions(consumer, Topics.DLQ_POSITIONS, TIMEOUT);
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            return;
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
        int read = 0;
        while (read < MAX_RECORDS_PER_UPDATE
                && partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                counts.merge(DeadLetterInspector.reason(record), 1L, Long::sum);
                read++;
            }
        }
    }

    /** Dead letters counted so far, by reason. */
    synchronized Map<String, Long> counts() {
        return Map.copyOf(counts);
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
