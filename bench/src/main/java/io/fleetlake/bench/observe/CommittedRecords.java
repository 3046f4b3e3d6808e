package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.operations.verify.RawPayloads;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a topic of device payloads as the pipeline does ({@code read_committed}) and reports each position the
 * moment it becomes readable: for the exactly-once Connect source that is when its transaction committed. Reads from
 * the end of every partition as of {@link #start()}, on a thread of its own, without a consumer group.
 */
public final class CommittedRecords implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommittedRecords.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Listener listener;
    private final PositionCodec codec = PositionCodec.bundled();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running;

    public CommittedRecords(String bootstrapServers, String topic, Listener listener) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.topic = requireNonNull(topic, "topic is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                        ConsumerConfig.CLIENT_ID_CONFIG, "fleet-bench-committed-records"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    /** Positions at the end of every partition now, then reads on a daemon thread until {@link #close()}. */
    public void start() {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // Resolves the lazy seek now, so that nothing published after start() is skipped.
        partitions.forEach(consumer::position);
        running = true;
        Thread thread = new Thread(this::read, "bench-committed-records");
        thread.setDaemon(true);
        thread.start();
    }

    private void read() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    long seen = System.currentTimeMillis();
                    RawPayloads.position(codec::decode, record.value())
                            .ifPresent(position -> listener.committed(
                                    position.vehicleId(),
                                    position.eventTime().toEpochMilli(),
                                    receivedAt(record).orElse(record.timestamp()),
                                    seen));
                }
            }
        } catch (WakeupException e) {
            LOG.debug("Stopped reading {}", topic, e);
        } catch (RuntimeException e) {
            LOG.error("Reading {} for the latency breakdown failed; its Kafka figures will be missing", topic, e);
        } finally {
            consumer.close();
            stopped.countDown();
        }
    }

    private static OptionalLong receivedAt(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(MessageHeaders.MQTT_RECEIVED_AT);
        if (header == null || header.value() == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(new String(header.value(), StandardCharsets.UTF_8).trim()));
        } catch (NumberFormatException e) {
            LOG.debug("Header {} of {} is not epoch milliseconds", MessageHeaders.MQTT_RECEIVED_AT, record, e);
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (!running) {
            consumer.close();
            return;
        }
        running = false;
        consumer.wakeup();
        if (!stopped.await(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.warn("The reader of {} did not stop within {}", topic, STOP_TIMEOUT);
        }
    }

    /** Told about each position as it becomes readable. Called on the reader's thread. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param eventTime the position's event time, epoch ms
         * @param receivedAt when the Connect source received it ({@code mqtt.received-at}, else the record's timestamp)
         * @param committedSeen when this reader got it, epoch ms
         */
        void committed(String vehicleId, long eventTime, long receivedAt, long committedSeen);
    }
}
