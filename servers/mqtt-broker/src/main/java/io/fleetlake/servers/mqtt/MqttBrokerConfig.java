package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Configuration of the MQTT broker (HiveMQ Community Edition, embedded).
 *
 * @param host address the MQTT TCP listener binds to
 * @param port MQTT TCP listener port
 * @param dataDirectory directory holding the generated HiveMQ configuration and the persistent sessions and queues
 * @param maxQueuedMessages messages queued per client while it is offline or slow; beyond this HiveMQ drops new
 *     messages, so it must cover the longest expected outage of a consumer (HiveMQ's own default is only 1000)
 * @param maxSessionExpiry longest time the broker keeps a disconnected persistent session and its queue
 */
public record MqttBrokerConfig(
        String host, int port, Path dataDirectory, long maxQueuedMessages, Duration maxSessionExpiry) {
    public static final String HOST = "mqtt.host";
    public static final String PORT = "mqtt.port";
    public static final String DATA_DIRECTORY = "mqtt.data-dir";
    public static final String MAX_QUEUED_MESSAGES = "mqtt.max-queued-messages";
    public static final String MAX_SESSION_EXPIRY = "mqtt.max-session-expiry";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 1883;
    public static final long DEFAULT_MAX_QUEUED_MESSAGES = 1_000_000;
    public static final Duration DEFAULT_MAX_SESSION_EXPIRY = Duration.ofDays(7);

    /** The largest session expiry interval MQTT 5 can express: a four-byte unsigned number of seconds. */
    static final long LARGEST_SESSION_EXPIRY_SECONDS = 4_294_967_295L;

    public MqttBrokerConfig {
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(maxSessionExpiry, "maxSessionExpiry is null");
        if (host.isBlank()) {
            throw new ConfigException(HOST + " is empty: set the address to listen on, such as 127.0.0.1");
        }
        // HiveMQ does not report the port it bound, so "any free port" (0) would leave clients without an address.
        if (port < 1 || port > 65535) {
            throw new ConfigException(PORT + " = " + port + " must be a fixed port between 1 and 65535");
        }
        if (maxQueuedMessages < 1) {
            throw new ConfigException(MAX_QUEUED_MESSAGES + " = " + maxQueuedMessages
                    + " must be at least 1; size it for the longest consumer outage");
        }
        if (maxSessionExpiry.isNegative()
                || maxSessionExpiry.isZero()
                || maxSessionExpiry.getSeconds() > LARGEST_SESSION_EXPIRY_SECONDS) {
            throw new ConfigException(MAX_SESSION_EXPIRY + " = " + maxSessionExpiry
                    + " must be a positive duration of at most " + LARGEST_SESSION_EXPIRY_SECONDS + " seconds,"
                    + " such as 7d");
        }
    }

    /** Reads the {@code mqtt.*} keys; {@value #DATA_DIRECTORY} is required. */
    public static MqttBrokerConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new MqttBrokerConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                Path.of(source.requiredString(DATA_DIRECTORY)),
                source.longValue(MAX_QUEUED_MESSAGES, DEFAULT_MAX_QUEUED_MESSAGES),
                source.duration(MAX_SESSION_EXPIRY, DEFAULT_MAX_SESSION_EXPIRY));
    }

    /** {@code host:port} of the MQTT TCP listener. */
    public String address() {
        return host + ":" + port;
    }

    /** Where the generated {@code config.xml} is written. */
    public Path configurationDirectory() {
        return dataDirectory.resolve("conf");
    }

    /** Where HiveMQ keeps sessions, subscriptions and queued messages. */
    public Path persistenceDirectory() {
        return dataDirectory.resolve("data");
    }

    /** HiveMQ's extension folder; left empty. */
    public Path extensionsDirectory() {
        return dataDirectory.resolve("extensions");
    }
}
