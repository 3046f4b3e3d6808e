package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Dead letters by reason: the committed records of {@value Topics#DLQ_POSITIONS} counted by their {@code dlq.reason}
 * header. Reads only record headers' worth of work, from a point in time to the current end.
 */
public final class DeadLetterInspector {
    /** The reason counted for a dead letter without a {@code dlq.reason} header. */
    public static final String UNKNOWN_REASON = "UNKNOWN";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /** A window holding more dead letters than this is counted up to here and reported as truncated. */
    private static final long MAX_RECORDS = 200_000;

    private final String bootstrapServers;
    private final Map<String, String> clientSecurity;

    public DeadLetterInspector(String bootstrapServers) {
        this(bootstrapServers, Map.of());
    }

    /** @param clientSecurity security settings of the consumer, such as a SASL login ({@code KafkaSaslCredentials}) */
    public DeadLetterInspector(String bootstrapServers, Map<String, String> clientSecurity) {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.clientSecurity = Map.copyOf(requireNonNull(clientSecurity, "clientSecurity is null"));
    }

    /**
     * The dead letters appended at or after {@code since} (by record timestamp), by reason.
     *
     * @throws InspectionException when Kafka cannot be asked
     */
    public DeadLetterCounts since(Instant since) {
        requireNonNull(since, "since is null");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerProperties(bootstrapServers, clientSecurity))) {
            List<TopicPartition> partitions = TopicRange.partitions(consumer, Topics.DLQ_POSITIONS, TIMEOUT);
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(partition -> query.put(partition, since.toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(query, TIMEOUT);
            for (TopicPartition partition : partitions) {
                OffsetAndTimestamp offset = start.get(partition);
                consumer.seek(partition, offset == null ? end.get(partition) : offset.offset());
            }
            Map<String, Long> reasons = new TreeMap<>();
            long total = 0;
            while (total < MAX_RECORDS && TopicRange.unread(consumer, partitions, end)) {
                total += TopicRange.pollBelowEnd(consumer, end, POLL_TIMEOUT, record -> {
                    reasons.merge(reason(record), 1L, Long::sum);
                    return true;
                });
            }
            return new DeadLetterCounts(since, reasons, total >= MAX_RECORDS);
        } catch (KafkaException e) {
            throw new InspectionException(
                    "Cannot read " + Topics.DLQ_POSITIONS + " at " + bootstrapServers + ": " + e.getMessage(), e);
        }
    }

    /** The {@code dlq.reason} header of a dead letter, {@value #UNKNOWN_REASON} when it has none. */
    public static String reason(ConsumerRecord<?, ?> record) {
        Header header = record.headers().lastHeader(MessageHeaders.DLQ_REASON);
        return header == null || header.value() == null
                ? UNKNOWN_REASON
                : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Properties of a read_committed consumer without a group, as the pipeline sees the topic. */
    public static Properties consumerProperties(String bootstrapServers) {
        return consumerProperties(bootstrapServers, Map.of());
    }

    /** The same, with security settings such as a SASL login ({@code KafkaSaslCredentials}). */
    public static Properties consumerProperties(String bootstrapServers, Map<String, String> clientSecurity) {
        return KafkaInspector.consumerProperties("fleet-dead-letters-", bootstrapServers, clientSecurity);
    }

    /**
     * @param since the start of the window
     * @param byReason dead letters per {@code dlq.reason}
     * @param truncated true when the window held more than the inspector counts
     */
    public record DeadLetterCounts(Instant since, Map<String, Long> byReason, boolean truncated) {
        public DeadLetterCounts {
            requireNonNull(since, "since is null");
            byReason = Map.copyOf(requireNonNull(byReason, "byReason is null"));
        }

        public long total() {
            return byReason.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
