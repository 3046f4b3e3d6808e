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
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MqttSourceTaskTest {
    private static final String TOPIC_1 = "fleet/truck-1/position";
    private static final String TOPIC_2 = "fleet/truck-2/position";

    private final AtomicReference<FakeMqttSubscriber> subscriber = new AtomicReference<>();
    private final MqttSourceTask task = new MqttSourceTask(
            settings -> {
                FakeMqttSubscriber created = new FakeMqttSubscriber(settings);
                subscriber.set(created);
                return created;
            },
            Duration.ofMillis(20),
            Duration.ofSeconds(10));

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
    void recordDroppedByConnectIsAcknowledgedOnItsCommit() throws InterruptedException {
        task.start(taskConfig(Map.of()));
        subscriber.get().deliver(TOPIC_1, "filtered-by-a-transformation");
        List<SourceRecord> records = task.poll();

        task.commitRecord(records.get(0), null);

        assertThat(subscriber.get().acknowledged()).containsExactly("filtered-by-a-transformation");
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
                Duration.ofSeconds(10));
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
                Duration.ofSeconds(10));

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
                Duration.ofMillis(50));
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
                new MqttSourceTask(FakeMqttSubscriber::new, Duration.ofMillis(20), Duration.ofSeconds(10));

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

    private static RecordMetadata metadata(long offset) {
        return new RecordMetadata(new TopicPartition("gps.raw.positions", 0), offset, 0, 0L, 0, 0);
    }
}
