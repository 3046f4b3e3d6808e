package io.fleetlake.flink.sources;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.Topics;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** The production source: the raw positions topic. */
public final class RawPositionsSource {
    private RawPositionsSource() {}

    /**
     * Reads {@link Topics#RAW_POSITIONS} from the consumer group's committed offsets, or from the earliest offset for a
     * new group. Only committed transactions are read, because the ingest connector writes transactionally and an
     * aborted batch is re-sent. A restored checkpoint's offsets win over the committed ones.
     */
    @SuppressWarnings("deprecation") // the connector's API still takes OffsetResetStrategy
    public static KafkaSource<RawRecord> create(FleetPipelineConfig config) {
        KafkaSourceBuilder<RawRecord> builder = KafkaSource.<RawRecord>builder()
                .setBootstrapServers(config.kafkaBootstrapServers())
                .setGroupId(config.consumerGroup())
                .setTopics(Topics.RAW_POSITIONS)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new RawRecordDeserializer())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .setClientIdPrefix(config.consumerGroup());
        // The pipeline's login, when the broker requires one (the compose deployment's does).
        config.kafkaClientProperties().forEach(builder::setProperty);
        return builder.build();
    }
}
