package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Kafka's own in-memory consumer stands in for a broker: the ranges are about offsets, not about the network. */
class TopicRangeTest {
    private static final String TOPIC = "gps.dlq.positions";
    private static final TopicPartition FIRST = new TopicPartition(TOPIC, 0);
    private static final TopicPartition SECOND = new TopicPartition(TOPIC, 1);
    private static final List<TopicPartition> PARTITIONS = List.of(FIRST, SECOND);

    @Test
    void everyPartitionOfTheTopic() {
        MockConsumer<String, String> consumer = consumer();

        assertThat(TopicRange.partitions(consumer, TOPIC, Duration.ofSeconds(1)))
                .containsExactly(FIRST, SECOND);
    }

    @Test
    void readsUpToTheEndTakenAtTheStartAndNoFurther() {
        MockConsumer<String, String> consumer = assignedFrom(Map.of(FIRST, 0L, SECOND, 0L));
        Map<TopicPartition, Long> end = Map.of(FIRST, 2L, SECOND, 1L);
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, "a", "keep"));
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 1, "b", "skip"));
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 1, 0, "c", "keep"));
        // Committed after the end was taken: not part of this reading.
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 1, 1, "d", "keep"));

        assertThat(TopicRange.unread(consumer, PARTITIONS, end)).isTrue();
        List<String> seen = new ArrayList<>();
        long accepted = TopicRange.pollBelowEnd(consumer, end, Duration.ofMillis(10), record -> {
            seen.add(record.key());
            return record.value().equals("keep");
        });

        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(accepted).isEqualTo(2);
    }

    @Test
    void nothingUnreadOnceEveryPositionReachedItsEnd() {
        MockConsumer<String, String> consumer = assignedFrom(Map.of(FIRST, 3L, SECOND, 0L));

        assertThat(TopicRange.unread(consumer, PARTITIONS, Map.of(FIRST, 3L, SECOND, 0L)))
                .isFalse();
        assertThat(TopicRange.unread(consumer, PARTITIONS, Map.of(FIRST, 3L, SECOND, 1L)))
                .isTrue();
    }

    /** A consumer of both partitions at the given beginning offsets. */
    private static MockConsumer<String, String> assignedFrom(Map<TopicPartition, Long> beginning) {
        MockConsumer<String, String> consumer = consumer();
        consumer.assign(PARTITIONS);
        consumer.updateBeginningOffsets(beginning);
        consumer.seekToBeginning(PARTITIONS);
        return consumer;
    }

    private static MockConsumer<String, String> consumer() {
        MockConsumer<String, String> consumer = new MockConsumer<>("earliest");
        consumer.updatePartitions(
                TOPIC,
                List.of(new PartitionInfo(TOPIC, 0, null, null, null), new PartitionInfo(TOPIC, 1, null, null, null)));
        return consumer;
    }
}
