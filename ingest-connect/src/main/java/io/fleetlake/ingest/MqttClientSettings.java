package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.types.Password;

/**
 * How one task's MQTT client connects and subscribes.
 *
 * @param serverUri the broker, {@code tcp://host:port} or {@code ssl://host:port}
 * @param clientId fixed per task number, so that a restarted task resumes its persistent session
 * @param subscriptionFilter the filter to subscribe to with QoS 1
 * @param obsoleteFilters filters this client id may still hold from an earlier task count; unsubscribed so that a task
 *     never receives a message twice through two subscriptions
 * @param username the MQTT user name, if any
 * @param password the MQTT password, if any; its {@code toString} is redacted
 * @param sessionExpiry how long the broker keeps the session while the client is away
 * @param receiveMaximum the most unacknowledged QoS 1 messages the broker may send at once
 */
record MqttClientSettings(
        URI serverUri,
        String clientId,
        String subscriptionFilter,
        List<String> obsoleteFilters,
        Optional<String> username,
        Optional<Password> password,
        Duration sessionExpiry,
        int receiveMaximum) {
    private static final String SHARED_SUBSCRIPTION_PREFIX = "$share/";

    MqttClientSettings {
        requireNonNull(serverUri, "serverUri is null");
        requireNonNull(clientId, "clientId is null");
        requireNonNull(subscriptionFilter, "subscriptionFilter is null");
        obsoleteFilters = List.copyOf(requireNonNull(obsoleteFilters, "obsoleteFilters is null"));
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requireNonNull(sessionExpiry, "sessionExpiry is null");
    }

    /**
     * The settings of one task: client id {@code <prefix>-<task number>}; with more than one task a shared
     * subscription {@code $share/<prefix>/<filter>}, so that the broker hands each message to one task only.
     */
    static MqttClientSettings forTask(MqttSourceTaskConfig config) {
        String sharedFilter = SHARED_SUBSCRIPTION_PREFIX + config.clientIdPrefix() + "/" + config.topicFilter();
        boolean shared = config.taskCount() > 1;
        return new MqttClientSettings(
                config.serverUri(),
                config.clientIdPrefix() + "-" + config.taskNumber(),
                shared ? sharedFilter : config.topicFilter(),
                List.of(shared ? config.topicFilter() : sharedFilter),
                config.username(),
                config.password(),
                config.sessionExpiry(),
                config.queueCapacity());
    }
}
