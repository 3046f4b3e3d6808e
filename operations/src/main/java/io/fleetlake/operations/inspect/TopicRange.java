package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reading a topic up to the end offsets taken when the reading began, the one way the inspections and the checks of
 * {@code fleet verify} do it: records committed after that end are left for the next reading, so that a count stays
 * the count of one moment however busy the topic is.
 */
public final class TopicRange {
    private TopicRange() {}

    /** Every partition of {@code topic}. */
    public static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic, Duration timeout) {
        requireNonNull(consumer, "consumer is null");
        requireNonNull(topic, "topic is null");
        return consumer.partitionsFor(topic, timeout).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
    }

    /** Whether the consumer's position in any of {@code partitions} is still below that partition's {@code end}. */
    public static boolean unread(
            Consumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        return partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition));
    }

    /**
     * Polls once and hands each record below its partition's {@code end} to {@code accepted}, in order.
     *
     * @return how many of them {@code accepted} accepted
     */
    public static <K, V> long pollBelowEnd(
            Consumer<K, V> consumer,
            Map<TopicPartition, Long> end,
            Duration pollTimeout,
            Predicate<ConsumerRecord<K, V>> accepted) {
        long count = 0;
        for (ConsumerRecord<K, V> record : consumer.poll(pollTimeout)) {
            if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))
                    && accepted.test(record)) {
                count++;
            }
        }
        return count;
    }
}
