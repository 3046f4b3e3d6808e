package io.fleetlake.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MqttSourceTaskTest {
    private static final String TOPIC_1 = "fleet/truck-1/position";
    private static final String TOPIC_2 = "fleet/truck-2/position";

    private final MutableClock clock = new MutableClock(FakeMqttSubscriber.RECEIVED_AT);
    private final AtomicReference<FakeMqttSubscriber> subscriber = new AtomicReference<>();
    private final MqttSourceTask task = new MqttSourceTask(
            settings -> {
                FakeMqttSubscriber created = new FakeMqttSubscriber(settings);
                subscriber.set(created);
                return created;
            },
            Duration.ofMillis(20),
            Duration.ofSeconds(10),
            clock);

    @AfterEach
    void stopTask() {
        task.stop();
    }

    @Test
    void acknowledgesOnlyOnCommitRecordInCommitOrder() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "m1");
        subscriber.get().deliver(TOPIC_2, "m2");
        subscriber.get().deliver(TOPIC_1, "m3");

        List<SourceRecord> records = task.poll();

        assertThat(records).hasSize(3);
        assertThat(subscriber.get().acknowledged()).isEmpty();

        task.commitRecord(records.get(0), metadata(0));
        assertThat(subscriber.get().acknowledged()).containsExactly("m1");
        task.commitRecord(records.get(1), metadata(1));
        task.commitRecord(records.get(2), metadata(2));

        assertThat(subscriber.get().acknowledged()).containsExactly("m1", "m2", "m3");
        assertThat(task.pendingCount()).isZero();
    }

    @Test
    void neverAcknowledgesPolledRecordsThatWereNotCommitted() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "committed");
        subscriber.get().deliver(TOPIC_1, "in-aborted-transaction");
        List<SourceRecord> records = task.poll();

        task.commitRecord(records.get(0), metadata(0));
        task.stop();
        // Connect never commits the second record; a late commitRecord after the stop must not acknowledge either.
        task.commitRecord(records.get(1), metadata(1));

        assertThat(subscriber.get().acknowledged()).containsExactly("committed");
    }

    @Test
    void stopReleasesEverythingWithoutAcknowledging() throws InterruptedException {
        task.start(taskConfig(Map.of(MqttSourceConfig.MAX_BATCH_SIZE, "2")));
        subscriber.get().deliver(TOPIC_1, "polled-1");
        subscriber.get().deliver(TOPIC_1, "polled-2");
        subscriber.get().deliver(TOPIC_1, "still-queued");
        List<SourceRecord> records = task.poll();
        assertThat(records).hasSize(2);
        assertThat(task.pendingCount()).isEqualTo(2);

        task.stop();

        assertThat(subscriber.get().closed()).isTrue();
        assertThat(task.pendingCount()).isZero();
        assertThat(subscriber.get().acknowledged()).isEmpty();
        records.forEach(record -> task.commitRecord(record, metadata(0)));
        assertThat(subscriber.get().acknowledged()).isEmpty();
    }

    @Test
    void identicalMessagesAreAcknowledgedOneByOne() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "");
        subscriber.get().deliver(TOPIC_1, "");
        List<SourceRecord> records = task.poll();

        task.commitRecord(records.get(0), metadata(0));
        assertThat(subscriber.get().acknowledged()).hasSize(1);
        assertThat(task.pendingCount()).isEqualTo(1);
        task.commitRecord(records.get(1), metadata(1));

        assertThat(subscriber.get().acknowledged()).hasSize(2);
        assertThat(task.pendingCount()).isZero();
    }

    @Test
    void recordKafkaRefusedIsDeadLetteredAndAcknowledgedOnlyOnceTheDeadLetterIsWritten() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "refused-by-the-broker");
        subscriber.get().deliver(TOPIC_2, "next");
        List<SourceRecord> records = task.poll();

        task.commitRecord(records.get(0), null);
        task.commitRecord(records.get(1), metadata(1));

        assertThat(subscriber.get().acknowledged()).containsExactly("next");
        assertThat(task.pendingCount()).isEqualTo(1);
        SourceRecord deadLetter = task.poll().get(0);
        assertThat(deadLetter.topic()).isEqualTo("gps.dlq.positions");
        assertThat(deadLetter.key()).isEqualTo("truck-1");
        assertThat(deadLetter.value()).isEqualTo("refused-by-the-broker".getBytes(UTF_8));
        assertThat(header(deadLetter, "dlq.reason")).isEqualTo("INGEST_REFUSED");
        assertThat(header(deadLetter, "dlq.detail").toString()).contains("Kafka refused the record");
        assertThat(header(deadLetter, "dlq.truncated")).isEqualTo("false");
        assertThat(subscriber.get().acknowledged()).containsExactly("next");

        task.commitRecord(deadLetter, metadata(7));

        assertThat(subscriber.get().acknowledged()).containsExactly("next", "refused-by-the-broker");
        assertThat(task.pendingCount()).isZero();
    }

    @Test
    void messageTooLargeForKafkaGoesStraightToABoundedDeadLetter() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        byte[] payload = new byte[1024 * 1024 + 1];
        subscriber.get().deliver(TOPIC_1, payload, "one-mebibyte-and-one", FakeMqttSubscriber.RECEIVED_AT);
        subscriber.get().deliver(TOPIC_1, "small");

        List<SourceRecord> records = task.poll();

        assertThat(records).hasSize(2);
        SourceRecord deadLetter = records.get(0);
        assertThat(deadLetter.topic()).isEqualTo("gps.dlq.positions");
        assertThat((byte[]) deadLetter.value()).hasSize(MqttSourceConfig.DEFAULT_DEAD_LETTER_PREVIEW_SIZE);
        assertThat(header(deadLetter, "dlq.original-size")).isEqualTo(1024L * 1024 + 1);
        assertThat(header(deadLetter, "dlq.truncated")).isEqualTo("true");
        assertThat(header(deadLetter, "dlq.detail").toString())
                .contains("1,048,577 bytes")
                .contains("connect.max-record-size = 1,000,000 bytes");
        assertThat(RecordSizes.serializedSize(deadLetter)).isLessThan(MqttSourceConfig.DEFAULT_MAX_RECORD_SIZE);
        assertThat(records.get(1).topic()).isEqualTo("gps.raw.positions");
        assertThat(subscriber.get().acknowledged()).isEmpty();

        task.commitRecord(records.get(1), metadata(1));
        task.commitRecord(deadLetter, metadata(2));

        assertThat(subscriber.get().acknowledged()).containsExactly("small", "one-mebibyte-and-one");
    }

    @Test
    void recordOfExactlyTheLimitIsSentAndOneByteMoreIsDeadLettered() throws InterruptedException {
        task.start(taskConfig(
                Map.of(MqttSourceConfig.MAX_RECORD_SIZE, "20000", MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE, "1000")));
        // Same order of magnitude as the payloads below, so that the length prefixes (varints) have the same size.
        subscriber.get().deliver(TOPIC_1, new byte[19000], "probe", FakeMqttSubscriber.RECEIVED_AT);
        int overhead = RecordSizes.serializedSize(task.poll().get(0)) - 19000;
        subscriber.get().deliver(TOPIC_1, new byte[20000 - overhead], "at-the-limit", FakeMqttSubscriber.RECEIVED_AT);
        subscriber.get().deliver(TOPIC_1, new byte[20001 - overhead], "above", FakeMqttSubscriber.RECEIVED_AT);

        List<SourceRecord> records = task.poll();

        assertThat(records).extracting(SourceRecord::topic).containsExactly("gps.raw.positions", "gps.dlq.positions");
        assertThat(RecordSizes.serializedSize(records.get(0))).isEqualTo(20000);
    }

    @Test
    void refusedDeadLetterIsSentAgainLaterAndItsMessageStaysUnacknowledged() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "refused");
        task.commitRecord(task.poll().get(0), null);
        SourceRecord firstDeadLetter = task.poll().get(0);

        task.commitRecord(firstDeadLetter, null);

        assertThat(task.poll()).as("the retry waits one second").isNull();
        clock.advance(Duration.ofSeconds(1));
        SourceRecord secondDeadLetter = task.poll().get(0);
        assertThat(secondDeadLetter).isNotSameAs(firstDeadLetter);
        assertThat(secondDeadLetter.topic()).isEqualTo("gps.dlq.positions");
        assertThat(subscriber.get().acknowledged()).isEmpty();
        task.commitRecord(secondDeadLetter, null);
        clock.advance(Duration.ofSeconds(1));
        assertThat(task.poll()).as("then two seconds").isNull();
        clock.advance(Duration.ofSeconds(1));

        task.commitRecord(task.poll().get(0), metadata(3));

        assertThat(subscriber.get().acknowledged()).containsExactly("refused");
    }

    @Test
    void refusalReportedAfterTheStopIsIgnored() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "in-flight");
        SourceRecord record = task.poll().get(0);

        task.stop();
        task.commitRecord(record, null);

        assertThat(task.pendingCount()).isZero();
        assertThat(subscriber.get().acknowledged()).isEmpty();
    }

    @Test
    void progressMetricsCountMessagesAndAgeTheOldestPendingOne() throws InterruptedException {
        Metrics metrics = new Metrics();
        task.initialize(new MetricsOnlyContext(new PluginMetricsImpl(metrics, Map.of("connector", "c", "task", "0"))));
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "m1".getBytes(UTF_8), "m1", clock.instant());
        clock.advance(Duration.ofSeconds(5));
        subscriber.get().deliver(TOPIC_1, "m2".getBytes(UTF_8), "m2", clock.instant());
        clock.advance(Duration.ofSeconds(7));

        assertThat(metric(metrics, IngestMetrics.RECEIVED)).isEqualTo(2L);
        assertThat(metric(metrics, IngestMetrics.PENDING))
                .as("both still queued")
                .isEqualTo(2L);
        assertThat(metric(metrics, IngestMetrics.OLDEST_PENDING_AGE)).isEqualTo(12_000L);
        assertThat(metric(metrics, IngestMetrics.MQTT_CONNECTED)).isEqualTo(1L);

        List<SourceRecord> records = task.poll();
        task.commitRecord(records.get(0), metadata(0));

        assertThat(metric(metrics, IngestMetrics.WRITTEN)).isEqualTo(1L);
        assertThat(metric(metrics, IngestMetrics.PENDING)).isEqualTo(1L);
        assertThat(metric(metrics, IngestMetrics.OLDEST_PENDING_AGE)).isEqualTo(7_000L);

        task.commitRecord(records.get(1), null);
        task.commitRecord(task.poll().get(0), metadata(1));

        assertThat(metric(metrics, IngestMetrics.DEAD_LETTERED)).isEqualTo(1L);
        assertThat(metric(metrics, IngestMetrics.PENDING)).isEqualTo(0L);
        assertThat(metric(metrics, IngestMetrics.OLDEST_PENDING_AGE)).isEqualTo(0L);
        task.stop();
        assertThat(metric(metrics, IngestMetrics.MQTT_CONNECTED)).isEqualTo(0L);
    }

    @Test
    void startsAndMovesMessagesWhileAnAbandonedInstanceStillHoldsItsMetrics() throws InterruptedException {
        Metrics metrics = new Metrics();
        Map<String, String> tags = Map.of("connector", "c", "task", "0");
        MqttSourceTask abandoned =
                new MqttSourceTask(FakeMqttSubscriber::new, Duration.ofMillis(20), Duration.ofSeconds(10), clock);
        abandoned.initialize(new MetricsOnlyContext(new PluginMetricsImpl(metrics, tags)));
        abandoned.start(taskConfig(Map.of()));

        task.initialize(new MetricsOnlyContext(new PluginMetricsImpl(metrics, tags)));
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "after the restart");

        assertThat(task.poll()).hasSize(1);
        abandoned.stop();
    }

    @Test
    void pollReturnsAtMostTheMaxBatchSize() throws InterruptedException {
        task.start(taskConfig(Map.of(MqttSourceConfig.MAX_BATCH_SIZE, "2")));
        for (int index = 0; index < 5; index++) {
            subscriber.get().deliver(TOPIC_1, "m" + index);
        }

        assertThat(task.poll()).hasSize(2);
        assertThat(task.poll()).hasSize(2);
        assertThat(task.poll()).hasSize(1);
        assertThat(task.poll()).isNull();
    }

    @Test
    void pollTakesNoMoreThanTheCapacityAwaitingCommit() throws InterruptedException {
        task.start(taskConfig(Map.of(MqttSourceConfig.QUEUE_CAPACITY, "2")));
        subscriber.get().deliver(TOPIC_1, "m1");
        subscriber.get().deliver(TOPIC_1, "m2");
        List<SourceRecord> first = task.poll();
        subscriber.get().deliver(TOPIC_1, "m3");

        assertThat(task.poll()).as("two records await their commit").isNull();

        task.commitRecord(first.get(0), metadata(0));
        List<SourceRecord> second = task.poll();
        assertThat(second).hasSize(1);
        assertThat(second.get(0).value()).isEqualTo("m3".getBytes(UTF_8));
        assertThat(task.pendingCount()).isEqualTo(2);
    }

    @Test
    void waitingPollResumesWhenARecordIsCommitted() throws InterruptedException {
        MqttSourceTask slowTask = new MqttSourceTask(
                settings -> {
                    FakeMqttSubscriber created = new FakeMqttSubscriber(settings);
                    subscriber.set(created);
                    return created;
                },
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                clock);
        slowTask.start(taskConfig(Map.of(MqttSourceConfig.QUEUE_CAPACITY, "1")));
        try {
            subscriber.get().deliver(TOPIC_1, "m1");
            SourceRecord first = slowTask.poll().get(0);
            CompletableFuture<List<SourceRecord>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return slowTask.poll();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            subscriber.get().deliver(TOPIC_1, "m2");

            slowTask.commitRecord(first, metadata(0));

            Awaitility.await().atMost(Duration.ofSeconds(10)).until(waiting::isDone);
            assertThat(waiting.join()).hasSize(1);
        } finally {
            slowTask.stop();
        }
    }

    @Test
    void pollWithoutMessagesReturnsNull() throws InterruptedException {
        task.start(taskConfig(Map.of()));

        assertThat(task.poll()).isNull();
    }

    @Test
    void subscriberGetsTheTaskClientIdAndSharedSubscription() {
        task.start(taskConfig(Map.of(
                MqttSourceTaskConfig.TASK_NUMBER, "2",
                MqttSourceTaskConfig.TASK_COUNT, "3",
                MqttSourceConfig.CLIENT_ID_PREFIX, "ingest")));

        MqttClientSettings settings = subscriber.get().settings();

        assertThat(settings.clientId()).isEqualTo("ingest-2");
        assertThat(settings.subscriptionFilter()).isEqualTo("$share/ingest/fleet/+/position");
    }

    @Test
    void recordsGoToTheConfiguredKafkaTopic() throws InterruptedException {
        task.start(taskConfig(Map.of(MqttSourceConfig.KAFKA_TOPIC, "other.topic")));
        subscriber.get().deliver(TOPIC_1, "m1");

        assertThat(task.poll()).singleElement().extracting(SourceRecord::topic).isEqualTo("other.topic");
    }

    @Test
    void refusedSubscriptionFailsTheStart() {
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        subscribed.completeExceptionally(new IllegalStateException("MQTT client fleet-ingest-0 cannot subscribe"));
        MqttSourceTask refusedTask = new MqttSourceTask(
                settings -> {
                    FakeMqttSubscriber created = new FakeMqttSubscriber(settings, subscribed);
                    subscriber.set(created);
                    return created;
                },
                Duration.ofMillis(20),
                Duration.ofSeconds(10),
                clock);

        assertThatThrownBy(() -> refusedTask.start(taskConfig(Map.of())))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("cannot subscribe");
        assertThat(subscriber.get().closed()).isTrue();
    }

    @Test
    void subscriptionStillPendingDoesNotFailTheStartButALaterRefusalFailsThePoll() throws InterruptedException {
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        MqttSourceTask pendingTask = new MqttSourceTask(
                settings -> {
                    FakeMqttSubscriber created = new FakeMqttSubscriber(settings, subscribed);
                    subscriber.set(created);
                    return created;
                },
                Duration.ofMillis(20),
                Duration.ofMillis(50),
                clock);
        try {
            pendingTask.start(taskConfig(Map.of()));
            assertThat(pendingTask.poll()).isNull();

            subscribed.completeExceptionally(new IllegalStateException("not authorised"));

            assertThatThrownBy(pendingTask::poll)
                    .isInstanceOf(ConnectException.class)
                    .hasMessageContaining("not authorised");
        } finally {
            pendingTask.stop();
        }
    }

    @Test
    void stopBeforeStartDoesNothing() {
        MqttSourceTask neverStarted =
                new MqttSourceTask(FakeMqttSubscriber::new, Duration.ofMillis(20), Duration.ofSeconds(10), clock);

        assertThatCode(neverStarted::stop).doesNotThrowAnyException();
    }

    @Test
    void versionIsTheProjectVersion() {
        assertThat(task.version()).isNotBlank().doesNotContain("${");
    }

    private static Map<String, String> taskConfig(Map<String, String> overrides) {
        Map<String, String> config = new HashMap<>();
        config.put(MqttSourceTaskConfig.TASK_NUMBER, "0");
        config.put(MqttSourceTaskConfig.TASK_COUNT, "1");
        config.putAll(overrides);
        return config;
    }

    private static Object metric(Metrics metrics, String name) {
        return metrics.metrics().entrySet().stream()
                .filter(entry -> entry.getKey().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name))
                .getValue()
                .metricValue();
    }

    /** The part of Connect's task context the task uses: its plugin metrics. */
    private record MetricsOnlyContext(PluginMetrics pluginMetrics) implements SourceTaskContext {
        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public OffsetStorageReader offsetStorageReader() {
            throw new UnsupportedOperationException("the MQTT source keeps no offsets");
        }
    }

    private static Object header(SourceRecord record, String name) {
        return record.headers().lastWithName(name).value();
    }

    private static RecordMetadata metadata(long offset) {
        return new RecordMetadata(new TopicPartition("gps.raw.positions", 0), offset, 0, 0L, 0, 0);
    }
}
