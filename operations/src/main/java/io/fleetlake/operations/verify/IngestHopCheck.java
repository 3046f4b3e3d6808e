package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.inspect.DeadLetterInspector;
import io.fleetlake.operations.inspect.InspectionException;
import io.fleetlake.operations.inspect.PrometheusText;
import io.fleetlake.operations.inspect.TopicRange;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the two ends of an {@link IngestHopReconciliation} window from the real servers: the MQTT broker's metrics
 * endpoint, and the end offsets (read_committed) of the raw topic and the dead-letter topic; then counts the records
 * committed in between. The reading order is the one the reconciliation's proof needs: Kafka, then the broker at the
 * start; at the end the broker's counters, then (after {@link #SETTLE}) the messages it holds, then Kafka.
 */
public final class IngestHopCheck {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    /**
     * Between reading the broker's accepted count and the messages it holds at the window's end. The broker counts a
     * position when it receives it and puts it in the subscriber's queue a moment later: read at once, a position
     * counted and not yet queued would look lost. Read later, it is queued, or acknowledged and so already in Kafka
     * (which is read after); positions accepted in the meantime only make the held count larger.
     */
    static final Duration SETTLE = Duration.ofSeconds(2);

    private final String kafkaBootstrapServers;
    private final Map<String, String> kafkaClientSecurity;
    private final Optional<URI> brokerMetrics;

    /**
     * @param brokerMetrics the MQTT broker's Prometheus endpoint; empty when the deployment has none (the hop is then
     *     reported as not reconciled)
     */
    public IngestHopCheck(String kafkaBootstrapServers, Optional<URI> brokerMetrics) {
        this(kafkaBootstrapServers, Map.of(), brokerMetrics);
    }

    /** @param kafkaClientSecurity security settings of its consumer, such as a SASL login ({@code KafkaSaslCredentials}) */
    public IngestHopCheck(
            String kafkaBootstrapServers, Map<String, String> kafkaClientSecurity, Optional<URI> brokerMetrics) {
        this.kafkaBootstrapServers = requireNonNull(kafkaBootstrapServers, "kafkaBootstrapServers is null");
        this.kafkaClientSecurity = Map.copyOf(requireNonNull(kafkaClientSecurity, "kafkaClientSecurity is null"));
        this.brokerMetrics = requireNonNull(brokerMetrics, "brokerMetrics is null");
    }

    /** Reads the window's start. */
    public Start start() {
        Map<TopicPartition, Long> raw = endOffsets(Topics.RAW_POSITIONS);
        Map<TopicPartition, Long> deadLetters = endOffsets(Topics.DLQ_POSITIONS);
        return new Start(Instant.now(), raw, deadLetters, broker());
    }

    /**
     * Waits until at least {@code window} has passed since {@code start}: a deliberate observation window, not a wait
     * for a condition.
     */
    public void awaitWindow(Start start, Duration window) {
        pause(Duration.between(Instant.now(), start.at().plus(window)));
    }

    private static void pause(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return;
        }
        try {
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the window's end and reconciles. */
    public IngestHopReconciliation finish(Start start) {
        requireNonNull(start, "start is null");
        BrokerReading counted = broker();
        Duration window = Duration.between(start.at(), Instant.now());
        pause(SETTLE);
        BrokerReading end = counted.withQueuedOf(broker());
        if (start.broker().error().isPresent() || end.error().isPresent()) {
            return IngestHopReconciliation.notReconciled(
                    window, start.broker().error().orElseGet(() -> end.error().get()));
        }
        long raw = committedRecords(Topics.RAW_POSITIONS, start.raw(), record -> true);
        long refused =
                committedRecords(Topics.DLQ_POSITIONS, start.deadLetters(), record -> RejectionReason.INGEST_REFUSED
                        .name()
                        .equals(DeadLetterInspector.reason(record)));
        return IngestHopReconciliation.compare(
                start.broker().counters().get(), end.counters().get(), raw, refused, window);
    }

    private BrokerReading broker() {
        if (brokerMetrics.isEmpty()) {
            return BrokerReading.failed("the MQTT broker's metrics endpoint is not known to this command");
        }
        try {
            return new BrokerReading(
                    Optional.of(BrokerCounters.from(PrometheusText.scrape(brokerMetrics.get()))), Optional.empty());
        } catch (InspectionException e) {
            return BrokerReading.failed("cannot read the MQTT broker's metrics: " + e.getMessage());
        }
    }

    private Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            return new HashMap<>(consumer.endOffsets(partitions, TIMEOUT));
        } catch (KafkaException e) {
            throw failure(topic, e);
        }
    }

    /** Records committed to {@code topic} from the offsets of {@code from} to the end offsets now that match. */
    private long committedRecords(
            String topic, Map<TopicPartition, Long> from, Predicate<ConsumerRecord<byte[], byte[]>> counted) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions, TIMEOUT);
            consumer.assign(partitions);
            for (TopicPartition partition : partitions) {
                // A partition added during the window starts at its beginning.
                consumer.seek(partition, from.getOrDefault(partition, beginning.get(partition)));
            }
            long count = 0;
            while (TopicRange.unread(consumer, partitions, end)) {
                count += TopicRange.pollBelowEnd(consumer, end, POLL_TIMEOUT, counted);
            }
            return count;
        } catch (KafkaException e) {
            throw failure(topic, e);
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(DeadLetterInspector.consumerProperties(kafkaBootstrapServers, kafkaClientSecurity));
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        return TopicRange.partitions(consumer, topic, TIMEOUT);
    }

    private StackVerifier.VerifyException failure(String topic, KafkaException e) {
        return new StackVerifier.VerifyException(
                "Cannot read the offsets of " + topic + " from Kafka at " + kafkaBootstrapServers + ": "
                        + e.getMessage(),
                e);
    }

    /** The window's start: when, the two topics' end offsets, and the broker's counters. */
    public record Start(
            Instant at, Map<TopicPartition, Long> raw, Map<TopicPartition, Long> deadLetters, BrokerReading broker) {
        public Start {
            requireNonNull(at, "at is null");
            raw = Map.copyOf(requireNonNull(raw, "raw is null"));
            deadLetters = Map.copyOf(requireNonNull(deadLetters, "deadLetters is null"));
            requireNonNull(broker, "broker is null");
        }
    }

    /** The broker's counters, or why they could not be read. */
    public record BrokerReading(Optional<BrokerCounters> counters, Optional<String> error) {
        public BrokerReading {
            requireNonNull(counters, "counters is null");
            requireNonNull(error, "error is null");
            if (counters.isPresent() == error.isPresent()) {
                throw new IllegalArgumentException("a reading has counters or an error, not both");
            }
        }

        static BrokerReading failed(String error) {
            return new BrokerReading(Optional.empty(), Optional.of(error));
        }

        /** These counters with the held messages of {@code later}, or the first error of the two. */
        BrokerReading withQueuedOf(BrokerReading later) {
            if (error.isPresent()) {
                return this;
            }
            if (later.error().isPresent()) {
                return later;
            }
            BrokerCounters these = counters.get();
            return new BrokerReading(
                    Optional.of(new BrokerCounters(
                            these.acceptedByListener(),
                            these.dropped(),
                            later.counters().get().queued(),
                            these.startedAt())),
                    Optional.empty());
        }
    }
}
