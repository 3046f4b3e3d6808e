package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import com.codahale.metrics.Gauge;
import com.hivemq.embedded.EmbeddedHiveMQ;
import com.hivemq.extension.sdk.api.services.Services;
import com.hivemq.extension.sdk.api.services.subscription.TopicSubscription;
import com.hivemq.persistence.clientqueue.ClientQueuePersistence;
import io.fleetlake.model.MqttTopics;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The messages the broker holds for the subscribers of {@link MqttTopics#POSITION_FILTER} (the ingest connector's
 * session): queued while the subscriber is offline or slow, and sent to it but not acknowledged yet. This is what is
 * in flight between the broker and Kafka (the connector acknowledges a message only after Kafka committed its record),
 * so a reconciliation of the broker's accepted publishes with Kafka tolerates exactly this many.
 *
 * <p>HiveMQ CE publishes no queue size with file persistence, and its extension SDK has none either. The size comes
 * from HiveMQ's client queue persistence, reached through the embedded broker's injector: an internal API of HiveMQ CE
 * 2025.5 (the version the build pins). {@code MqttBrokerIT} proves it against a real broker, so that an upgrade that
 * changes it fails the build instead of serving a wrong number. It survives a restart of the broker: the queues are
 * persisted, and the size is read from them, not counted since the start.
 *
 * <p>Counted: the queue of every client with an individual subscription to exactly the position filter, and the queue
 * of every shared subscription group {@code $share/<group>/fleet/+/position}. A subscription with another filter that
 * also matches position topics (such as {@code fleet/#}) is not counted.
 */
final class PositionQueue implements Gauge<Long> {
    /** The gauge's name in HiveMQ's metric registry. */
    static final String NAME = "fleet.mqtt.position-messages-queued";

    private static final String SHARED_PREFIX = "$share/";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final QueueSizes queues;

    PositionQueue(QueueSizes queues) {
        this.queues = requireNonNull(queues, "queues is null");
    }

    /**
     * The gauge of a started broker. Reflection only: the injector is package-private in HiveMQ, and Guice and Guava
     * (the injector's and the future's types) are HiveMQ's runtime dependencies, not this module's.
     */
    static PositionQueue of(EmbeddedHiveMQ hiveMq) {
        requireNonNull(hiveMq, "hiveMq is null");
        try {
            Method getInjector = hiveMq.getClass().getDeclaredMethod("getInjector");
            getInjector.setAccessible(true);
            Object injector = getInjector.invoke(hiveMq);
            Object persistence = Class.forName("com.google.inject.Injector")
                    .getMethod("getInstance", Class.class)
                    .invoke(injector, ClientQueuePersistence.class);
            Method size = ClientQueuePersistence.class.getMethod("size", String.class, boolean.class);
            return new PositionQueue((queueId, shared) -> {
                try {
                    return (Future<?>) size.invoke(persistence, queueId, shared);
                } catch (IllegalAccessException | InvocationTargetException e) {
                    throw new IllegalStateException("Cannot ask HiveMQ for the size of queue " + queueId + ": " + e, e);
                }
            });
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException(
                    "This HiveMQ CE version does not give access to its client queues (written for 2025.5): " + e, e);
        }
    }

    /** HiveMQ's {@code ClientQueuePersistence#size(queueId, shared)}: the messages queued for one client or group. */
    @FunctionalInterface
    interface QueueSizes {
        Future<?> size(String queueId, boolean shared);
    }

    /**
     * The number of messages queued or unacknowledged for the position subscribers now.
     *
     * @throws IllegalStateException when the broker does not answer within 5 s; the metrics endpoint then omits the
     *     series instead of serving a wrong number
     */
    @Override
    public Long getValue() {
        Set<String> individual = new HashSet<>();
        Set<String> shared = new HashSet<>();
        try {
            Services.subscriptionStore()
                    .iterateAllSubscriptions((context, client) -> {
                        for (TopicSubscription subscription : client.getSubscriptions()) {
                            sharedGroupQueue(subscription.getTopicFilter()).ifPresentOrElse(shared::add, () -> {
                                if (subscription.getTopicFilter().equals(MqttTopics.POSITION_FILTER)) {
                                    individual.add(client.getClientId());
                                }
                            });
                        }
                    })
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long queued = 0;
            for (String client : individual) {
                queued += size(client, false);
            }
            for (String group : shared) {
                queued += size(group, true);
            }
            return queued;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading the position subscribers' queues", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read the position subscribers' queues: " + e, e);
        }
    }

    private long size(String queueId, boolean shared)
            throws InterruptedException, ExecutionException, TimeoutException {
        return ((Number) queues.size(queueId, shared).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).longValue();
    }

    /**
     * HiveMQ's queue id of a shared subscription to the position filter ({@code <group>/<filter>}), or empty when
     * {@code topicFilter} is not one.
     */
    static Optional<String> sharedGroupQueue(String topicFilter) {
        if (!topicFilter.startsWith(SHARED_PREFIX) || !topicFilter.endsWith("/" + MqttTopics.POSITION_FILTER)) {
            return Optional.empty();
        }
        String groupAndFilter = topicFilter.substring(SHARED_PREFIX.length());
        String group = groupAndFilter.substring(0, groupAndFilter.length() - MqttTopics.POSITION_FILTER.length() - 1);
        return group.isEmpty() || group.contains("/") ? Optional.empty() : Optional.of(groupAndFilter);
    }
}
