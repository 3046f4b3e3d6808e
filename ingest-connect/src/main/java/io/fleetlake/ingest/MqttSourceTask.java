package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads QoS 1 messages from one MQTT session and hands them to Kafka Connect as records.
 *
 * <h2>Delivery invariant: acknowledge after commit</h2>
 *
 * An MQTT message is acknowledged (PUBACK) <em>only</em> in {@link #commitRecord(SourceRecord, RecordMetadata)}, which
 * Connect calls once the record is durably in Kafka: on a worker with {@code exactly.once.source.support=enabled},
 * after the Kafka transaction holding the record has committed (each {@link #poll()} batch is one transaction); on a
 * worker without it, after the producer's acknowledgement. Until then the broker keeps the message in the task's
 * persistent session (fixed client id, {@code cleanStart=false}, session expiry above zero). So:
 *
 * <ul>
 *   <li>a crash, kill or restart of the worker, a failed transaction or a lost broker connection loses nothing: the
 *       broker redelivers every message not acknowledged when the task's client id connects again;
 *   <li>a message can reach Kafka twice (committed, then the worker died before the PUBACK left). The pipeline
 *       de-duplicates resends by (vehicle id, event time);
 *   <li>nothing is acknowledged for a record that was polled but never committed, and {@link #stop()} acknowledges
 *       nothing: it only releases what the task held.
 * </ul>
 *
 * Acknowledgements follow commit order; the MQTT client sends the PUBACKs in the order the messages arrived, as the
 * MQTT specification requires. Records that Connect drops on purpose (a transformation filtered them, or an error was
 * tolerated) are also committed by Connect and therefore acknowledged, so that the broker does not redeliver them
 * forever.
 *
 * <h2>Bounded memory</h2>
 *
 * Messages wait in a queue of {@code mqtt.queue-capacity} between the MQTT client and {@code poll()}; records wait
 * for their commit in {@link PendingAcknowledgements}, also bounded by the capacity. The broker is told the same
 * number as receive maximum, so it never has more unacknowledged messages in flight to the task than the task can
 * hold.
 */
public final class MqttSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSourceTask.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration SUBSCRIPTION_WAIT = Duration.ofSeconds(10);

    private final MqttSubscriber.Factory subscriberFactory;
    private final Duration pollTimeout;
    private final Duration subscriptionWait;

    private volatile MqttSourceTaskConfig config;
    private volatile MqttClientSettings settings;
    private volatile BlockingQueue<MqttInboundMessage> received;
    private volatile PendingAcknowledgements pending;
    private volatile MqttSubscriber subscriber;
    private volatile CompletableFuture<Void> subscription;

    /** Used by Kafka Connect: a HiveMQ MQTT client per task. */
    public MqttSourceTask() {
        this(HivemqMqttSubscriber::new, POLL_TIMEOUT, SUBSCRIPTION_WAIT);
    }

    MqttSourceTask(MqttSubscriber.Factory subscriberFactory, Duration pollTimeout, Duration subscriptionWait) {
        this.subscriberFactory = requireNonNull(subscriberFactory, "subscriberFactory is null");
        this.pollTimeout = requireNonNull(pollTimeout, "pollTimeout is null");
        this.subscriptionWait = requireNonNull(subscriptionWait, "subscriptionWait is null");
    }

    @Override
    public String version() {
        return ConnectorVersion.current();
    }

    /**
     * Starts the MQTT client and waits up to ten seconds for the broker to acknowledge the subscription, so that a
     * RUNNING task normally means "subscribed": the broker keeps messages for a session only from its subscription on.
     * A broker that is down does not fail the task: the client keeps reconnecting and logs every attempt. A broker that
     * refuses the subscription fails the task, with the reason in the task's status.
     */
    @Override
    public void start(Map<String, String> properties) {
        config = new MqttSourceTaskConfig(properties);
        settings = MqttClientSettings.forTask(config);
        received = new LinkedBlockingQueue<>(config.queueCapacity());
        pending = new PendingAcknowledgements(config.queueCapacity());
        LOG.info(
                "Starting MQTT source task {} of {}: client {} subscribes to {} on {}, writes to Kafka topic {}",
                config.taskNumber(),
                config.taskCount(),
                settings.clientId(),
                settings.subscriptionFilter(),
                settings.serverUri(),
                config.kafkaTopic());
        subscriber = subscriberFactory.create(settings);
        subscription = subscriber.start(this::enqueue);
        awaitSubscription();
    }

    private void awaitSubscription() {
        try {
            subscription.get(subscriptionWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn(
                    "MQTT client {} is not subscribed to {} after {} s; it keeps trying in the background. The broker"
                            + " keeps messages for this task only once the subscription exists",
                    settings.clientId(),
                    settings.subscriptionFilter(),
                    subscriptionWait.toSeconds());
        } catch (ExecutionException e) {
            subscriber.close();
            throw new ConnectException(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            subscriber.close();
            throw new ConnectException("Interrupted while subscribing MQTT client " + settings.clientId(), e);
        }
    }

    /** Called by the MQTT client, one message at a time; blocks while the queue is full. */
    private void enqueue(MqttInboundMessage message) {
        try {
            received.put(message);
        } catch (InterruptedException e) {
            // Only a stop interrupts the delivery thread; the message stays unacknowledged and is redelivered.
            Thread.currentThread().interrupt();
            LOG.debug("Stopped while queueing a message from {}; the broker will deliver it again", message.topic());
        }
    }

    /**
     * Returns up to {@code mqtt.max-batch-size} records, waiting up to half a second for the first message, or
     * {@code null} when none arrived.
     */
    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (subscription.isCompletedExceptionally()) {
            // The broker refused the subscription after start() stopped waiting: fail the task so its status shows it.
            awaitSubscription();
        }
        int room = pending.awaitRoom(pollTimeout);
        if (room == 0) {
            return null;
        }
        MqttInboundMessage first = received.poll(pollTimeout.toNanos(), TimeUnit.NANOSECONDS);
        if (first == null) {
            return null;
        }
        List<MqttInboundMessage> batch = new ArrayList<>();
        batch.add(first);
        received.drainTo(batch, Math.min(room, config.maxBatchSize()) - 1);
        List<SourceRecord> records = new ArrayList<>(batch.size());
        for (MqttInboundMessage message : batch) {
            SourceRecord record = MqttSourceRecords.toSourceRecord(message, config.kafkaTopic());
            pending.register(record, message.acknowledgement());
            records.add(record);
        }
        return records;
    }

    /** The record is in Kafka (its transaction committed): only now the MQTT message is acknowledged. */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        if (!pending.acknowledge(record)) {
            LOG.debug("Committed record is no longer pending (task stopped); its message will be redelivered");
        }
    }

    @Override
    public void stop() {
        MqttSubscriber current = subscriber;
        if (current == null) {
            return;
        }
        current.close();
        int queued = received.size();
        received.clear();
        int uncommitted = pending.releaseAll();
        LOG.info(
                "Stopped MQTT client {}; {} queued and {} uncommitted messages stay unacknowledged in its session and"
                        + " will be delivered again",
                settings.clientId(),
                queued,
                uncommitted);
    }

    /** Records handed to Connect and not yet committed; for tests. */
    int pendingCount() {
        return pending.size();
    }
}
