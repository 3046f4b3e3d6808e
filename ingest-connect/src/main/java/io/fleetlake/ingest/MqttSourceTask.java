package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads QoS 1 messages from one MQTT session and hands them to Kafka Connect as records.
 *
 * <h2>Delivery invariant: acknowledge after Kafka acknowledged</h2>
 *
 * An MQTT message is acknowledged (PUBACK) <em>only</em> in {@link #commitRecord(SourceRecord, RecordMetadata)} with
 * metadata, which Connect calls once Kafka acknowledged the record: the worker's producer writes with {@code acks=all}
 * and idempotence, so the record is on every in-sync replica of its partition. The record is either the message itself
 * on {@code kafka.topic}, or, when Kafka cannot take it, its dead letter on {@code connect.dead-letter-topic}. Until then
 * the broker keeps the message in the task's persistent session (fixed client id, {@code cleanStart=false}, session
 * expiry above zero). So:
 *
 * <ul>
 *   <li><b>nothing is lost</b>: a crash, kill or restart of the worker, a Kafka outage or pause, or a lost broker
 *       connection leaves every message that Kafka did not acknowledge unacknowledged in the session, and the broker
 *       delivers it again when the task's client id connects again;
 *   <li><b>every message ends in Kafka at least once</b>, in exactly one of two places: the target topic, or (reason
 *       {@code INGEST_REFUSED}, see {@link DeadLetters}) the dead-letter topic. A message whose record would exceed
 *       {@code connect.max-record-size} goes straight to the dead-letter topic; a record Kafka refuses with a
 *       non-retriable error (Connect reports it here without metadata, {@code errors.tolerance=all}) is dead-lettered
 *       next. A refused dead letter is retried with a growing delay (1 s up to 30 s) and its message stays
 *       unacknowledged meanwhile;
 *   <li><b>duplicates are possible</b> and only as whole copies of a message: when the worker dies after Kafka
 *       acknowledged a record and before the PUBACK reached the broker, the broker redelivers the message. The pipeline
 *       de-duplicates resends by (vehicle id, event time);
 *   <li>nothing is acknowledged for a record that Kafka has not acknowledged, and {@link #stop()} acknowledges nothing:
 *       it only releases what the task held. Acknowledgements arriving after the stop are ignored.
 * </ul>
 *
 * Records are visible to readers as soon as Kafka acknowledged them (no transaction); the producer's retries are
 * idempotent, so a retry never writes a record twice. Acknowledgements follow Kafka's order; the MQTT client sends the
 * PUBACKs in the order the messages arrived, as the MQTT specification requires.
 *
 * <h2>Bounded memory</h2>
 *
 * Messages wait in a queue of {@code mqtt.queue-capacity} between the MQTT client and {@code poll()}; records wait for
 * Kafka in {@link PendingMessages}, also bounded by the capacity. The broker is told the same number as receive maximum,
 * so it never has more unacknowledged messages in flight to the task than the task can hold.
 *
 * <h2>Progress</h2>
 *
 * The task publishes {@link IngestMetrics} (received, written, dead-lettered, pending, age of the oldest pending
 * message, MQTT connection) through Connect's plugin metrics; the worker's health check and supervisor read them.
 */
public final class MqttSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(MqttSourceTask.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration SUBSCRIPTION_WAIT = Duration.ofSeconds(10);

    private final MqttSubscriber.Factory subscriberFactory;
    private final Duration pollTimeout;
    private final Duration subscriptionWait;
    private final Clock clock;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    private volatile MqttSourceTaskConfig config;
    private volatile MqttClientSettings settings;
    private volatile BlockingQueue<MqttInboundMessage> queue;
    private volatile PendingMessages pending;
    private volatile MqttSubscriber subscriber;
    private volatile CompletableFuture<Void> subscription;
    private volatile boolean stopped;

    /** Used by Kafka Connect: a HiveMQ MQTT client per task. */
    public MqttSourceTask() {
        this(HivemqMqttSubscriber::new, POLL_TIMEOUT, SUBSCRIPTION_WAIT, Clock.systemUTC());
    }

    MqttSourceTask(
            MqttSubscriber.Factory subscriberFactory, Duration pollTimeout, Duration subscriptionWait, Clock clock) {
        this.subscriberFactory = requireNonNull(subscriberFactory, "subscriberFactory is null");
        this.pollTimeout = requireNonNull(pollTimeout, "pollTimeout is null");
        this.subscriptionWait = requireNonNull(subscriptionWait, "subscriptionWait is null");
        this.clock = requireNonNull(clock, "clock is null");
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
        queue = new LinkedBlockingQueue<>(config.queueCapacity());
        pending = new PendingMessages(config.queueCapacity());
        LOG.info(
                "Starting MQTT source task {} of {}: client {} subscribes to {} on {}, writes to Kafka topic {}"
                        + " (records up to {} bytes; larger ones and refused ones go to {})",
                config.taskNumber(),
                config.taskCount(),
                settings.clientId(),
                settings.subscriptionFilter(),
                settings.serverUri(),
                config.kafkaTopic(),
                config.maxRecordSize(),
                config.deadLetterTopic());
        subscriber = subscriberFactory.create(settings);
        if (context != null) {
            IngestMetrics.register(context.pluginMetrics(), new Progress());
        }
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
            queue.put(message);
            received.incrementAndGet();
        } catch (InterruptedException e) {
            // Only a stop interrupts the delivery thread; the message stays unacknowledged and is redelivered.
            Thread.currentThread().interrupt();
            LOG.debug("Stopped while queueing a message from {}; the broker will deliver it again", message.topic());
        }
    }

    /**
     * Returns up to {@code mqtt.max-batch-size} records, waiting up to half a second for the first message, or
     * {@code null} when none arrived. Dead letters of refused messages that are due come first. A message whose record
     * would be larger than {@code connect.max-record-size} is returned as its dead letter.
     */
    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (subscription.isCompletedExceptionally()) {
            // The broker refused the subscription after start() stopped waiting: fail the task so its status shows it.
            awaitSubscription();
        }
        int room = Math.min(pending.awaitRoom(pollTimeout), config.maxBatchSize());
        if (room == 0) {
            return null;
        }
        Instant now = clock.instant();
        List<SourceRecord> records = new ArrayList<>();
        for (PendingMessages.Refusal refusal : pending.takeDue(now, room)) {
            // Logged here, not when Kafka reported the refusal: a task that is being cancelled also sees every record
            // in flight fail (its producer is closed) and never sends those dead letters.
            if (refusal.deadLetterAttempts() == 0) {
                LOG.warn(
                        "Kafka refused a record from MQTT topic {}; dead-lettering it to {}: {}",
                        abbreviated(refusal.message().topic()),
                        config.deadLetterTopic(),
                        refusal.detail());
            } else {
                LOG.error(
                        "Kafka refused the dead letter of a message from MQTT topic {} {} time(s); the message stays"
                                + " unacknowledged, sending its dead letter again",
                        abbreviated(refusal.message().topic()),
                        refusal.deadLetterAttempts());
            }
            SourceRecord deadLetter = deadLetter(refusal.message(), refusal.detail(), now);
            pending.registerDeadLetter(deadLetter, refusal.message(), refusal.detail(), refusal.deadLetterAttempts());
            records.add(deadLetter);
        }
        List<MqttInboundMessage> batch = new ArrayList<>();
        if (records.isEmpty()) {
            MqttInboundMessage first = queue.poll(pollTimeout.toNanos(), TimeUnit.NANOSECONDS);
            if (first == null) {
                return null;
            }
            batch.add(first);
        }
        queue.drainTo(batch, room - records.size() - batch.size());
        for (MqttInboundMessage message : batch) {
            records.add(recordFor(message, now));
        }
        return records;
    }

    /** The record of {@code message}, or its dead letter when the record would exceed the size limit. */
    private SourceRecord recordFor(MqttInboundMessage message, Instant now) {
        SourceRecord record = MqttSourceRecords.toSourceRecord(message, config.kafkaTopic());
        int size = RecordSizes.serializedSize(record);
        if (size <= config.maxRecordSize()) {
            pending.register(record, message);
            return record;
        }
        String detail = String.format(
                Locale.ROOT,
                "The MQTT payload of %,d bytes makes a Kafka record of %,d bytes, more than %s = %,d bytes (the"
                        + " producer's max.request.size); the dead letter keeps %s",
                message.payload().length,
                size,
                MqttSourceConfig.MAX_RECORD_SIZE,
                config.maxRecordSize(),
                message.payload().length > config.deadLetterPreviewSize()
                        ? String.format(Locale.ROOT, "the first %,d bytes", config.deadLetterPreviewSize())
                        : "the whole payload");
        LOG.warn("Dead-lettering a message from MQTT topic {}: {}", abbreviated(message.topic()), detail);
        SourceRecord deadLetter = deadLetter(message, detail, now);
        pending.registerDeadLetter(deadLetter, message, detail, 0);
        return deadLetter;
    }

    private SourceRecord deadLetter(MqttInboundMessage message, String detail, Instant now) {
        return DeadLetters.of(message, config.deadLetterTopic(), config.deadLetterPreviewSize(), detail, now);
    }

    /**
     * Kafka acknowledged {@code record} (metadata present): only now its MQTT message is acknowledged. Without metadata
     * Kafka refused it with a non-retriable error (the worker tolerates producer errors and logs them): the message is
     * dead-lettered by a later {@link #poll()}, or a refused dead letter is sent again after a delay.
     */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        if (stopped) {
            LOG.debug("Record settled after the task stopped; its message stays unacknowledged and is redelivered");
            return;
        }
        if (metadata != null) {
            switch (pending.acknowledge(record)) {
                case WRITTEN -> written.incrementAndGet();
                case DEAD_LETTERED -> deadLettered.incrementAndGet();
                case UNKNOWN -> LOG.debug("Acknowledged record is no longer pending; nothing to acknowledge");
            }
            return;
        }
        String detail = String.format(
                Locale.ROOT,
                "Kafka refused the record of %,d bytes for topic %s with a non-retriable error (the Connect worker"
                        + " logged the producer's error at %s)",
                RecordSizes.serializedSize(record),
                record.topic(),
                clock.instant());
        pending.refuse(record, detail, clock.instant())
                .ifPresent(refusal -> LOG.debug(
                        "Kafka refused a record for {} (dead letter attempts: {}); next dead letter due at {}",
                        record.topic(),
                        refusal.deadLetterAttempts(),
                        refusal.dueAt()));
    }

    @Override
    public void stop() {
        stopped = true;
        MqttSubscriber current = subscriber;
        if (current == null) {
            return;
        }
        current.close();
        int queued = queue.size();
        queue.clear();
        int unacknowledged = pending.releaseAll();
        LOG.info(
                "Stopped MQTT client {}; {} queued and {} unacknowledged messages stay in its session and will be"
                        + " delivered again",
                settings.clientId(),
                queued,
                unacknowledged);
    }

    /** Messages taken from the queue and not yet acknowledged; for tests. */
    int pendingCount() {
        return pending.size();
    }

    private static String abbreviated(String topic) {
        return topic.length() <= 200 ? topic : topic.substring(0, 200) + "...";
    }

    /** The live values behind the task's {@link IngestMetrics}. */
    private final class Progress implements IngestMetrics.Source {
        @Override
        public long received() {
            return received.get();
        }

        @Override
        public long written() {
            return written.get();
        }

        @Override
        public long deadLettered() {
            return deadLettered.get();
        }

        @Override
        public long pending() {
            return queue.size() + pending.size();
        }

        @Override
        public long oldestPendingAgeMillis() {
            Instant now = clock.instant();
            MqttInboundMessage head = queue.peek();
            Instant oldest = pending.oldestReceivedAt()
                    .filter(candidate -> head == null || candidate.isBefore(head.receivedAt()))
                    .orElse(head == null ? now : head.receivedAt());
            return Math.max(0, Duration.between(oldest, now).toMillis());
        }

        @Override
        public boolean mqttConnected() {
            MqttSubscriber current = subscriber;
            return current != null && current.connected();
        }
    }
}
