package io.fleetlake.flink.sinks;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.model.Topics;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.kafka.clients.producer.ProducerConfig;

/** The production late-positions sink: {@link Topics#LATE_POSITIONS}, exactly once. */
public final class LatePositionSink {
    private LatePositionSink() {}

    /**
     * A transactional Kafka sink like the dead-letter sink: late positions become visible to {@code read_committed}
     * consumers when the checkpoint that covers them completes, and a replay after a failover writes them once. Its
     * transactional ids start with {@code late-} before the configured prefix, so that they never share a prefix with
     * the dead-letter producer's (a producer aborts the lingering transactions of its own prefix on recovery).
     */
    public static KafkaSink<EnrichedPosition> create(FleetPipelineConfig config) {
        KafkaSinkBuilder<EnrichedPosition> builder = KafkaSink.<EnrichedPosition>builder()
                .setBootstrapServers(config.kafkaBootstrapServers())
                .setRecordSerializer(new LatePositionSerializationSchema(Topics.LATE_POSITIONS))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalIdPrefix(config))
                .setProperty(
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        Long.toString(DeadLetterSink.TRANSACTION_TIMEOUT.toMillis()));
        // The pipeline's login, when the broker requires one (the compose deployment's does).
        config.kafkaClientProperties().forEach(builder::setProperty);
        return builder.build();
    }

    static String transactionalIdPrefix(FleetPipelineConfig config) {
        return "late-" + config.transactionalIdPrefix();
    }
}
