package io.fleetlake.flink.sinks;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Topics;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.kafka.clients.producer.ProducerConfig;

/** The production dead-letter sink: {@link Topics#DLQ_POSITIONS}, exactly once. */
public final class DeadLetterSink {
    /**
     * Kafka brokers refuse transactions longer than {@code transaction.max.timeout.ms} (15 minutes by default), while
     * Flink's producer asks for one hour; a transaction must outlive a checkpoint plus a restart, so 15 minutes.
     */
    static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    private DeadLetterSink() {}

    /**
     * A transactional Kafka sink: dead letters become visible to {@code read_committed} consumers when the checkpoint
     * that covers them completes, and a replay after a failover writes them once.
     */
    public static KafkaSink<RejectedRecord> create(FleetPipelineConfig config) {
        KafkaSinkBuilder<RejectedRecord> builder = KafkaSink.<RejectedRecord>builder()
                .setBootstrapServers(config.kafkaBootstrapServers())
                .setRecordSerializer(
                        new DeadLetterSerializationSchema(Topics.DLQ_POSITIONS, config.deadLetterMaxBytes()))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(config.transactionalIdPrefix())
                .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Long.toString(TRANSACTION_TIMEOUT.toMillis()))
                // The serializer bounds every dead letter by the same limit, so the producer never refuses one.
                .setProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(config.deadLetterMaxBytes()));
        // The pipeline's login, when the broker requires one (the compose deployment's does).
        config.kafkaClientProperties().forEach(builder::setProperty);
        return builder.build();
    }
}
